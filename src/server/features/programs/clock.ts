import { dayOfDate, type DayOfWeek } from '../../../common/programs.js';

/** The weekday, minute of the day and calendar date at `now` in the station's time zone. */
export function stationClock(now: Date, timeZone: string): { day: DayOfWeek; minute: number; date: string } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const date = `${get('year')}-${get('month')}-${get('day')}`;
  return { day: dayOfDate(date), minute: Number(get('hour')) * 60 + Number(get('minute')), date };
}
