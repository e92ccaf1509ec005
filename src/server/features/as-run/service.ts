import type { FastifyInstance } from 'fastify';
import { DEFAULT_RETENTION_DAYS } from '../../../common/reports.js';
import type { Database } from '../../db/client.js';
import type { LibraryItem } from '../../radio/library.js';
import type { Airing, Programming } from '../../radio/programming.js';
import { licenceFieldsOf } from '../library/service.js';
import { deleteSessionsBefore } from '../listeners/service.js';
import { reportRetentionDays, saveReportRetentionDays } from '../settings/service.js';
import { AsRunRecorder, type ProgrammeOnAir } from './recorder.js';
import {
  airtimes,
  deleteEntriesBefore,
  entriesBetween,
  figuresPerProgramme,
  playsPerItem,
  type AsRunRow,
} from './repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The as-run log being written, on the instance that runs the radio. */
    asRunRecorder?: AsRunRecorder;
  }
}

export { AsRunRecorder, type OnAirFeed, type ProgrammeOnAir } from './recorder.js';
export type { AsRunRow } from './repository.js';

/**
 * The schedule as the engine sees it, telling the as-run log each item it puts on the air: `aired` is the
 * engine's own word for an item's first moment on the air (wall-clock ms).
 */
export function programmingTold(programming: Programming) {
  let told: ((item: LibraryItem, at: number) => void) | null = null;
  const tapped: Programming = {
    next: (from: number): Promise<Airing | null> => programming.next(from),
    hardChangeBetween: (from, to) => programming.hardChangeBetween(from, to),
    aired(item, at) {
      programming.aired(item, at);
      told?.(item, at);
    },
  };
  return {
    programming: tapped,
    tell: (listener: (item: LibraryItem, at: number) => void) => (told = listener),
  };
}

/**
 * The as-run log on the instance that runs the radio: what the engine airs, the schedule's programme at the
 * time, the library's fields, and listener figures from the listeners feature's sessions.
 */
export function recordAsRun(
  app: FastifyInstance,
  options: {
    programmeAt(at: number): Promise<ProgrammeOnAir | null>;
    tell(listener: (item: LibraryItem, at: number) => void): void;
  },
): AsRunRecorder {
  const engine = app.radio;
  const recorder = new AsRunRecorder(
    {
      db: app.db,
      programmeAt: options.programmeAt,
      media: async (id) => (await licenceFieldsOf(app.db, [id])).get(id),
      figures: (from, to) => app.listenerSessions.figuresBetween(from, to),
      log: app.log,
    },
    {
      onChange: (listener) => engine.onChange(listener),
      onEvent: (listener) => engine.onEvent(listener),
      wallAt: (clock) => Date.now() + (clock - engine.broadcaster.clock) * 1000,
      liveOwner: () => {
        const by = engine.live.session?.info.connectedBy;
        if (!by) return null;
        return by.kind === 'presenter'
          ? { kind: 'presenter', presenterId: by.presenterId }
          : { kind: 'station' };
      },
    },
  );
  options.tell((item, at) => recorder.aired(item, at));
  app.addHook('preClose', async () => recorder.stop());
  const stopRetention = keepForRetention(app.db, app.log);
  app.addHook('onClose', async () => stopRetention());
  return recorder;
}

export const retentionDays = (db: Database) => reportRetentionDays(db, DEFAULT_RETENTION_DAYS);

export async function saveRetentionDays(db: Database, days: number): Promise<number> {
  await saveReportRetentionDays(db, days);
  await forgetOld(db);
  return days;
}

/** Rows older than the retention go: the as-run log's and the listener sessions'. */
export async function forgetOld(db: Database, now = Date.now()) {
  const before = new Date(now - (await retentionDays(db)) * 86_400_000);
  return { asRun: await deleteEntriesBefore(db, before), sessions: await deleteSessionsBefore(db, before) };
}

const RETENTION_CHECK_MS = 6 * 3_600_000;

function keepForRetention(db: Database, log: { warn(details: object, message: string): void }) {
  const run = () =>
    void forgetOld(db).catch((error: unknown) => log.warn({ err: error }, 'old as-run rows not removed'));
  const first = setTimeout(run, 60_000);
  const timer = setInterval(run, RETENTION_CHECK_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}

/** The as-run rows of [from, to), narrowed to a programme or a presenter's own. */
export function asRunBetween(
  db: Database,
  from: Date,
  to: Date,
  only: { programmeId?: string; presenterId?: string } = {},
): Promise<AsRunRow[]> {
  return entriesBetween(db, from, to, only);
}

type Scope = { programmeId?: string; presenterId?: string };

/** A period's plays counted per item as aired (see the repository), for the licence files. */
export const playsPerItemBetween = (db: Database, from: Date, to: Date, only: Scope = {}) =>
  playsPerItem(db, from, to, only);
export type ItemPlays = Awaited<ReturnType<typeof playsPerItem>>[number];

/** Listener figures per programme over a period. */
export const programmeFiguresBetween = (db: Database, from: Date, to: Date, only: Scope = {}) =>
  figuresPerProgramme(db, from, to, only);
export type ProgrammeFigures = Awaited<ReturnType<typeof figuresPerProgramme>>[number];

/** When what a programme (or a presenter's programmes) aired in a period was on the air. */
export const airtimesBetween = (db: Database, from: Date, to: Date, only: Scope = {}) =>
  airtimes(db, from, to, only);
