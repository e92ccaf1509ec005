import type { z } from 'zod';
import {
  addDays,
  DAYS_OF_WEEK,
  DEFAULT_AIRS,
  MINUTES_PER_DAY,
  minutesOf,
  PROGRAM_NOT_FOUND,
  type DayOfWeek,
  type Overlap,
  type Program,
  type programBodySchema,
  type programPatchSchema,
  type ScheduledProgram,
  type WeekSchedule,
} from '../../../common/programs.js';
import { mediaScheduled } from '../../../common/library.js';
import type { Database } from '../../db/client.js';
import { stationClock } from './clock.js';
import { fail, type Outcome } from './outcome.js';
import * as repository from './repository.js';
import {
  airingsOn,
  overlapInWeek,
  overlapMessage,
  weeklyOverlaps,
  weeklyWhen,
  type Airing,
} from './schedule.js';

export { stationClock, zonedParts } from './clock.js';
export { checkOneOff, createOneOff, deleteOneOff, listOneOffs } from './one-offs.js';

const SOON_WINDOW_MINUTES = 60;

/** An airing as SPEC.md lists it, `start` minutes after today's midnight (negative: began yesterday). */
function listed(airing: Airing, start: number, minute: number): Program {
  const isLive = minute >= start && minute < start + airing.duration;
  const isFuture = start > minute;
  const status = isLive
    ? 'LIVE'
    : isFuture
      ? start - minute <= SOON_WINDOW_MINUTES
        ? 'SOON'
        : 'UPCOMING'
      : 'ENDED';
  return {
    id: airing.id,
    title: airing.title,
    startTime: airing.startTime,
    duration: airing.duration,
    // No speaker: SPEC.md has the listener's page show the station name, whatever it is by then.
    ...(airing.speaker ? { speaker: airing.speaker } : {}),
    ...(airing.ministryFocus ? { ministryFocus: airing.ministryFocus } : {}),
    description: airing.description,
    status,
    isCurrent: isLive,
    isLive,
    isFuture,
  };
}

/**
 * Today's programmes in the station's time zone, by start time: the weekly entries with today's one-off
 * changes applied. A programme from last night still on the air after midnight comes first.
 */
export async function listTodaysPrograms(
  db: Database,
  timeZone: string,
  now = new Date(),
): Promise<Program[]> {
  const { minute, date } = stationClock(now, timeZone);
  const yesterday = addDays(date, -1);
  const { weekly, oneOffs } = await repository.scheduleBetween(db, yesterday, date);
  const carried = airingsOn(yesterday, weekly, oneOffs)
    .map((airing) => listed(airing, minutesOf(airing.startTime) - MINUTES_PER_DAY, minute))
    .filter((program) => program.isLive);
  const today = airingsOn(date, weekly, oneOffs).map((airing) =>
    listed(airing, minutesOf(airing.startTime), minute),
  );
  return [...carried, ...today];
}

const dayIndex = (day: string) => DAYS_OF_WEEK.indexOf(day as DayOfWeek);

function scheduledOf(row: repository.ProgramRow, overlaps: Map<string, string[]>): ScheduledProgram {
  return {
    id: row.id,
    title: row.title,
    speaker: row.speaker,
    ministryFocus: row.ministryFocus,
    description: row.description,
    startTime: row.startTime,
    duration: row.duration,
    dayOfWeek: row.dayOfWeek as DayOfWeek,
    isActive: row.isActive === 'true',
    airs: row.airs ?? DEFAULT_AIRS,
    overlapsWith: overlaps.get(row.id) ?? [],
    sample: row.sample,
  };
}

/** Every weekly programme, active or not, by day and start time, with the overlaps among the active ones. */
export async function weekSchedule(db: Database, timeZone: string, now = new Date()): Promise<WeekSchedule> {
  const rows = await repository.allPrograms(db);
  const overlaps = weeklyOverlaps(rows);
  const programs = rows
    .sort((a, b) => dayIndex(a.dayOfWeek) - dayIndex(b.dayOfWeek))
    .map((row) => scheduledOf(row, overlaps));
  return { timeZone, today: stationClock(now, timeZone).date, programs };
}

async function withOverlaps(db: Database, id: string) {
  const rows = await repository.allPrograms(db);
  const row = rows.find((r) => r.id === id);
  return row && scheduledOf(row, weeklyOverlaps(rows));
}

type Timing = { id?: string; dayOfWeek: string; startTime: string; duration: number };

/** The active weekly programmes a programme with this timing would share the air with, by day. */
async function weeklyClashes(db: Database, candidate: Timing): Promise<Overlap[]> {
  return (await repository.allPrograms(db))
    .filter((p) => p.isActive === 'true' && p.id !== candidate.id && overlapInWeek(candidate, p))
    .sort((a, b) => dayIndex(a.dayOfWeek) - dayIndex(b.dayOfWeek))
    .map((p) => ({ title: p.title, when: weeklyWhen(p) }));
}

type ProgramBody = z.output<typeof programBodySchema>;
type ProgramPatch = z.output<typeof programPatchSchema>;

/** What a new weekly programme would overlap; an inactive one overlaps nothing. */
export async function checkNewProgram(db: Database, body: ProgramBody): Promise<Overlap[]> {
  return body.isActive ? weeklyClashes(db, body) : [];
}

/** Adds a weekly programme; one that overlaps an active programme is refused unless confirmed. */
export async function createProgram(db: Database, body: ProgramBody): Promise<Outcome<ScheduledProgram>> {
  const { confirmOverlap, isActive, ...fields } = body;
  const overlaps = confirmOverlap ? [] : await checkNewProgram(db, body);
  if (overlaps.length > 0) return fail('overlap', overlapMessage(overlaps));
  const row = await repository.insertProgram(db, { ...fields, isActive: String(isActive) });
  return { ok: true, value: (await withOverlaps(db, row.id))! };
}

/** A weekly programme as a patch would leave it, and the overlaps that change would need confirmed. */
async function changed(db: Database, id: string, patch: ProgramPatch) {
  const current = await repository.programById(db, id);
  if (!current) return undefined;
  const { confirmOverlap: _confirm, isActive, ...fields } = patch;
  const changes = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  const next = {
    ...current,
    ...changes,
    isActive: isActive === undefined ? current.isActive : String(isActive),
  };
  // A change of words alone is not checked, so an overlap staff accepted stays accepted.
  const moved =
    next.dayOfWeek !== current.dayOfWeek ||
    next.startTime !== current.startTime ||
    next.duration !== current.duration ||
    current.isActive !== 'true';
  const overlaps = next.isActive === 'true' && moved ? await weeklyClashes(db, next) : [];
  // A sample programme staff edited is theirs now (removing the sample leaves it); switching it off is not an edit.
  const edited = Object.keys(changes).length > 0;
  return { changes: { ...changes, isActive: next.isActive, ...(edited && { sample: false }) }, overlaps };
}

/** What a change to a weekly programme would overlap, exactly as its save would check it. */
export async function checkProgramChange(
  db: Database,
  id: string,
  patch: ProgramPatch,
): Promise<Outcome<Overlap[]>> {
  const change = await changed(db, id, patch);
  return change ? { ok: true, value: change.overlaps } : fail('not-found', PROGRAM_NOT_FOUND);
}

/**
 * Changes a weekly programme. A move in time, a new length or switching it back on is checked for
 * overlaps (unless confirmed); a change of words alone is not.
 */
export async function updateProgram(
  db: Database,
  id: string,
  patch: ProgramPatch,
): Promise<Outcome<ScheduledProgram>> {
  const change = await changed(db, id, patch);
  if (!change) return fail('not-found', PROGRAM_NOT_FOUND);
  if (change.overlaps.length > 0 && !patch.confirmOverlap) {
    return fail('overlap', overlapMessage(change.overlaps));
  }
  const row = await repository.updateProgram(db, id, change.changes);
  if (!row) return fail('not-found', PROGRAM_NOT_FOUND);
  return { ok: true, value: (await withOverlaps(db, id))! };
}

export const deleteProgram = repository.deleteProgram;

/** A week of programmes added at once (the demo seed). */
export const addPrograms = repository.insertPrograms;

/** How many sample programmes (come with a fresh station, never edited) are left. */
export const countSamplePrograms = repository.countSamplePrograms;

/** Marks the programmes left unedited from an earlier demo seed as sample (rows were not marked then). */
export const markSamplePrograms = repository.markSamplePrograms;

/** Deletes the sample programmes, keeping staff's one-off replacements of them as added programmes. */
export const removeSamplePrograms = repository.deleteSamplePrograms;

/**
 * The bus topic a save of the schedule is told on: what reads the schedule keeps it until then (a change made
 * outside the Schedule tab, such as the demo seed, is heard within a minute).
 */
export const SCHEDULE_CHANGED_TOPIC = 'schedule_changed';

/**
 * Every programme airing on the dates from `from` to `to` (station time zone), with what it airs: the
 * schedule that decides what plays reads it here.
 */
export async function airingsBetween(db: Database, from: string, to: string) {
  const { weekly, oneOffs } = await repository.scheduleBetween(db, from, to);
  const dated = [];
  for (let date = from; date <= to; date = addDays(date, 1))
    for (const airing of airingsOn(date, weekly, oneOffs)) dated.push({ date, ...airing });
  return dated;
}

/** Why a library item cannot be deleted: a programme airs it (weekly, or a one-off still to come). */
export const programmeHoldingMedia =
  (db: Database, timeZone: () => string) =>
  async (mediaId: string): Promise<string | undefined> => {
    const today = stationClock(new Date(), timeZone()).date;
    const title = await repository.programAiring(db, 'mediaId', mediaId, today);
    return title && mediaScheduled(title);
  };

/** Why a playlist cannot be deleted: a programme plays it, or fills with it. */
export const programmeHoldingPlaylist =
  (db: Database, timeZone: () => string) =>
  async (playlistId: string): Promise<string | undefined> => {
    const today = stationClock(new Date(), timeZone()).date;
    const title =
      (await repository.programAiring(db, 'playlistId', playlistId, today)) ??
      (await repository.programAiring(db, 'fillPlaylistId', playlistId, today));
    return (
      title && `The programme '${title}' plays this playlist. Change what it airs in the Schedule tab first.`
    );
  };
