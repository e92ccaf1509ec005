import { DAYS_OF_WEEK, minutesOf, type DayOfWeek, type Program } from '../../../common/programs.js';
import type { Database } from '../../db/client.js';
import * as repository from './repository.js';

/** The weekday and minute of the day at `now` in the station's time zone. */
export function stationClock(now: Date, timeZone: string): { day: DayOfWeek; minute: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'long',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = get('weekday').toLowerCase() as DayOfWeek;
  return {
    day: DAYS_OF_WEEK.includes(day) ? day : 'sunday',
    minute: Number(get('hour')) * 60 + Number(get('minute')),
  };
}

const SOON_WINDOW_MINUTES = 60;

export async function listTodaysPrograms(
  db: Database,
  timeZone: string,
  now = new Date(),
): Promise<Program[]> {
  const { day, minute } = stationClock(now, timeZone);
  const rows = await repository.activeProgramsOn(db, day);
  return rows.map((row) => {
    const start = minutesOf(row.startTime);
    const isLive = minute >= start && minute < start + row.duration;
    const isFuture = start > minute;
    const status = isLive
      ? 'LIVE'
      : isFuture
        ? start - minute <= SOON_WINDOW_MINUTES
          ? 'SOON'
          : 'UPCOMING'
        : 'ENDED';
    return {
      id: row.id,
      title: row.title,
      startTime: row.startTime,
      duration: row.duration,
      speaker: row.speaker,
      description: row.description,
      status,
      isCurrent: isLive,
      isLive,
      isFuture,
    };
  });
}

/** A week of programmes added at once (the demo seed). */
export const addPrograms = repository.insertPrograms;
