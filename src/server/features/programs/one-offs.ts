import type { z } from 'zod';
import {
  addDays,
  dayLabel,
  dayOfDate,
  DEFAULT_AIRS,
  MAX_ONE_OFF_RANGE_DAYS,
  ONE_OFF_NOT_FOUND,
  PROGRAM_NOT_FOUND,
  timeRange,
  type DayOfWeek,
  type OneOff,
  type oneOffBodySchema,
  type Overlap,
} from '../../../common/programs.js';
import type { Database } from '../../db/client.js';
import { stationClock } from './clock.js';
import { fail, type Outcome } from './outcome.js';
import * as repository from './repository.js';
import { airingsOn, clashesWith, overlapMessage, type PlacedAiring } from './schedule.js';

// One-off changes on a date (DESIGN.md section 7): cancel or replace a weekly programme, or add a special.

function oneOffOf({
  oneOff,
  replaces,
}: Awaited<ReturnType<typeof repository.oneOffsBetween>>[number]): OneOff {
  return {
    id: oneOff.id,
    date: oneOff.date,
    kind: oneOff.kind,
    programId: oneOff.programId,
    title: oneOff.title,
    speaker: oneOff.speaker,
    ministryFocus: oneOff.ministryFocus,
    description: oneOff.description,
    startTime: oneOff.startTime,
    duration: oneOff.duration,
    airs: oneOff.kind === 'cancel' ? null : (oneOff.airs ?? DEFAULT_AIRS),
    replaces,
  };
}

/** One-off changes from `from` (default today in the station's time zone) to `to` (default a year on). */
export async function listOneOffs(
  db: Database,
  range: { from?: string; to?: string; timeZone: string; now?: Date },
): Promise<Outcome<OneOff[]>> {
  const from = range.from ?? stationClock(range.now ?? new Date(), range.timeZone).date;
  const to = range.to ?? addDays(from, MAX_ONE_OFF_RANGE_DAYS - 1);
  if (to < from) return { ok: true, value: [] };
  if (addDays(from, MAX_ONE_OFF_RANGE_DAYS - 1) < to) {
    return fail('invalid', `The dates listed may span at most ${MAX_ONE_OFF_RANGE_DAYS} days`);
  }
  return { ok: true, value: (await repository.oneOffsBetween(db, from, to)).map(oneOffOf) };
}

type OneOffBody = z.output<typeof oneOffBodySchema>;

/** What a one-off programme would share the air with around its date (the evening before, the morning after). */
async function dateClashes(db: Database, body: OneOffBody & { kind: 'replace' | 'add' }): Promise<Overlap[]> {
  const { weekly, oneOffs } = await repository.scheduleBetween(
    db,
    addDays(body.date, -1),
    addDays(body.date, 1),
  );
  // The change being made takes the place of any earlier change to the same programme that day.
  const others = oneOffs.filter(
    (o) => !(o.date === body.date && body.kind === 'replace' && o.programId === body.programId),
  );
  const candidate = {
    ...body,
    id: '',
    programId: body.kind === 'replace' ? body.programId : null,
    ministryFocus: body.ministryFocus ?? null,
    description: body.description ?? null,
  };
  const placed = [-1, 0, 1].flatMap((offset): PlacedAiring[] =>
    airingsOn(addDays(body.date, offset), weekly, [...others, candidate])
      .filter((airing) => airing.id !== '')
      .map((airing) => ({ ...airing, dayOffset: offset })),
  );
  return clashesWith(candidate, placed).map((c) => ({
    title: c.title,
    when: `${timeRange(c.startTime, c.duration)} on ${addDays(body.date, c.dayOffset)}`,
  }));
}

/**
 * Whether a one-off change could be saved, and what it would overlap: a date from today on (station time),
 * a weekly programme of that weekday for a cancel or replace. A cancel overlaps nothing.
 */
export async function checkOneOff(
  db: Database,
  body: OneOffBody,
  timeZone: string,
  now = new Date(),
): Promise<Outcome<Overlap[]>> {
  if (body.date < stationClock(now, timeZone).date) {
    return fail('invalid', 'That date has passed: choose today or a later date');
  }
  if (body.kind !== 'add') {
    const program = await repository.programById(db, body.programId);
    if (!program) return fail('not-found', PROGRAM_NOT_FOUND);
    const day = dayOfDate(body.date);
    if (program.dayOfWeek !== day) {
      return fail(
        'invalid',
        `"${program.title}" is on ${dayLabel(program.dayOfWeek as DayOfWeek)}s; ${body.date} is a ${dayLabel(day)}`,
      );
    }
  }
  return { ok: true, value: body.kind === 'cancel' ? [] : await dateClashes(db, body) };
}

/** Saves a one-off change; one that would overlap is refused unless confirmed. */
export async function createOneOff(
  db: Database,
  body: OneOffBody,
  timeZone: string,
  now = new Date(),
): Promise<Outcome<OneOff>> {
  const checked = await checkOneOff(db, body, timeZone, now);
  if (!checked.ok) return checked;
  if (checked.value.length > 0 && !(body.kind !== 'cancel' && body.confirmOverlap)) {
    return fail('overlap', overlapMessage(checked.value));
  }
  const id = await repository.saveOneOff(db, {
    date: body.date,
    kind: body.kind,
    programId: body.kind === 'add' ? null : body.programId,
    title: body.kind === 'cancel' ? null : body.title,
    speaker: body.kind === 'cancel' ? null : body.speaker,
    ministryFocus: body.kind === 'cancel' ? null : body.ministryFocus,
    description: body.kind === 'cancel' ? null : body.description,
    startTime: body.kind === 'cancel' ? null : body.startTime,
    duration: body.kind === 'cancel' ? null : body.duration,
    airs: body.kind === 'cancel' ? null : body.airs,
  });
  const saved = await repository.oneOffById(db, id);
  return saved ? { ok: true, value: oneOffOf(saved) } : fail('not-found', ONE_OFF_NOT_FOUND);
}

export const deleteOneOff = repository.deleteOneOff;
