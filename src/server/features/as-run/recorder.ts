import { MIN_LISTENER_SECONDS, type AsRunReason } from '../../../common/as-run.js';
import type { NowPlaying } from '../../../common/radio.js';
import type { Database } from '../../db/client.js';
import type { AirEvent } from '../../radio/engine.js';
import type { LibraryItem } from '../../radio/library.js';
import { endDangling, endEntry, insertEntry, setFigures, type AsRunValues } from './repository.js';

/** What the as-run log hears from the radio engine: its public events and its clock. */
export interface OnAirFeed {
  onChange(listener: (np: NowPlaying) => void): () => void;
  onEvent(listener: (event: AirEvent) => void): () => void;
  /** The wall-clock time (epoch ms) at which a stream-clock second is (or was) on the air. */
  wallAt(clock: number): number;
  /** Who the live source on the air now connected as. */
  liveOwner(): { kind: 'presenter'; presenterId: string } | { kind: 'station' } | null;
}

/** A programme slot on the schedule at a time, as the as-run log names it. */
export interface ProgrammeOnAir {
  id: string;
  title: string;
  /** The presenter of a live programme. */
  presenterId: string | null;
  live: boolean;
}

/** A library item's fields as licences ask for them, as it is when it airs. */
export interface MediaSnapshot {
  title: string;
  artist: string;
  album: string;
  label: string;
  isrc: string;
  composer: string;
  ccliSongNumber: string;
  licenceClass: 'music' | 'speech' | 'jingle';
}

export interface RecorderDeps {
  db: Database;
  programmeAt(at: number): Promise<ProgrammeOnAir | null>;
  media(id: string): Promise<MediaSnapshot | undefined>;
  /** Listener figures over [from, to): the listeners feature's sessions (one counting rule). */
  figures(from: number, to: number): Promise<{ peak: number; average: number; heard: number }>;
  log?: { warn(details: object, message: string): void };
  now?: () => number;
  /** How long after an item ends its figures are worked out: every session overlapping it is known by then. */
  settleMs?: number;
}

type Entry = Omit<AsRunValues, 'startedAt' | 'endedAt'>;
type State = 'autodj' | 'live' | 'relay';

const keyOf = (np: NowPlaying) => `${np.current_track.artist}\u0000${np.current_track.title}`;

/**
 * The as-run log as it happens: each item the AutoDJ puts on the air (told through the schedule's `aired`),
 * each live source and each song its encoder names, each relayed station's title; one row each, from its first
 * moment on the air to the next's. Writes go one after another; the listener figures of a row are written a
 * little after it ends, once every listener session overlapping it has either ended or lasted long enough to
 * count.
 */
export class AsRunRecorder {
  private chain: Promise<unknown> = Promise.resolve();
  private current: { id: number; startedAt: number; key: string | null } | null = null;
  private state: State = 'autodj';
  /** The library item the AutoDJ last put on the air: it resumes when a live source or a relay leaves. */
  private lastAired: { entry: Entry; key: string } | null = null;
  private pendingLive: { reason: AsRunReason; presenterId: string | null } | null = null;
  private readonly settling = new Map<number, { timer: NodeJS.Timeout; run: () => Promise<void> }>();
  private readonly offs: (() => void)[] = [];
  private stopped = false;
  private readonly settleMs: number;

  constructor(
    private readonly deps: RecorderDeps,
    private readonly air: OnAirFeed,
  ) {
    this.settleMs = deps.settleMs ?? MIN_LISTENER_SECONDS * 1000 + 2000;
    this.enqueue(() => endDangling(deps.db));
    this.offs.push(air.onEvent((event) => this.event(event)));
    this.offs.push(air.onChange((np) => this.changed(np)));
  }

  private now() {
    return this.deps.now?.() ?? Date.now();
  }

  private enqueue(work: () => Promise<unknown>): Promise<unknown> {
    this.chain = this.chain
      .then(work)
      .catch((error: unknown) => this.deps.log?.warn({ err: error }, 'as-run log not written'));
    return this.chain;
  }

  /** The schedule was told an item went on the air at `at` (wall ms). */
  aired(item: LibraryItem, at: number): void {
    if (this.stopped || this.state === 'live') return;
    this.state = 'autodj';
    this.enqueue(async () => {
      const entry = await this.entryFor(item, at);
      const key = `${entry.artist ?? ''}\u0000${entry.title}`;
      if (entry.kind === 'library') this.lastAired = { entry, key };
      await this.open(entry, at, key);
    });
  }

  private async entryFor(item: LibraryItem, at: number): Promise<Entry> {
    const programme = await this.deps.programmeAt(at).catch(() => null);
    const inProgramme = {
      programmeId: programme?.id ?? null,
      programmeTitle: programme?.title ?? null,
      presenterId: programme?.presenterId ?? null,
    };
    const media = item.id ? await this.deps.media(item.id) : undefined;
    if (!item.id || !media) {
      // The station's own fill: nothing to play (the test transmission), or a file outside the library.
      return {
        kind: 'fill',
        reason: 'fill',
        mediaId: item.id ?? null,
        title: item.title ?? 'Station fill',
        artist: item.artist ?? '',
        licenceClass: null,
        ...inProgramme,
      };
    }
    // A live programme whose presenter is not there is filled by the rotation.
    const reason: AsRunReason = programme ? (programme.live ? 'fill' : 'schedule') : 'rotation';
    return { kind: 'library', reason, mediaId: item.id, ...media, ...inProgramme };
  }

  private event(event: AirEvent): void {
    if (this.stopped || event.type !== 'live_on_air') return;
    const owner = this.air.liveOwner();
    this.pendingLive = {
      reason: owner?.kind === 'presenter' ? 'presenter' : 'station_password',
      presenterId: owner?.kind === 'presenter' ? owner.presenterId : null,
    };
  }

  private changed(np: NowPlaying): void {
    if (this.stopped) return;
    const key = keyOf(np);
    const at = this.air.wallAt(np.current_track.started_at);
    const { title, artist } = np.current_track;
    if (np.is_live) {
      const live = this.pendingLive ?? (this.state === 'live' ? this.liveOf : null);
      if (live) {
        if (this.state === 'live' && !this.pendingLive && key === this.current?.key) return;
        this.pendingLive = null;
        this.state = 'live';
        this.liveOf = live;
        this.enqueue(async () => {
          const programme = await this.deps.programmeAt(at).catch(() => null);
          await this.open(
            {
              kind: 'live',
              reason: live.reason,
              title,
              artist,
              licenceClass: null,
              programmeId: programme?.id ?? null,
              programmeTitle: programme?.title ?? null,
              presenterId: live.presenterId ?? programme?.presenterId ?? null,
            },
            at,
            key,
          );
        });
        return;
      }
      if (this.state === 'relay' && key === this.current?.key) return;
      this.state = 'relay';
      this.enqueue(async () => {
        const programme = await this.deps.programmeAt(at).catch(() => null);
        await this.open(
          {
            kind: 'relay',
            reason: 'relay',
            title,
            artist,
            licenceClass: null,
            programmeId: programme?.id ?? null,
            programmeTitle: programme?.title ?? null,
            presenterId: programme?.presenterId ?? null,
          },
          at,
          key,
        );
      });
      return;
    }
    if (this.state === 'autodj') return;
    // The air is back with the AutoDJ: the item a live source or relay interrupted goes on from here.
    this.state = 'autodj';
    const resumed = this.lastAired?.key === key ? this.lastAired : null;
    this.enqueue(async () => {
      if (resumed) await this.open(resumed.entry, at, key);
      else await this.close(at);
    });
  }

  private liveOf: { reason: AsRunReason; presenterId: string | null } | null = null;

  /** A new row from `at`; the one on the air before it ends there. */
  private async open(entry: Entry, at: number, key: string | null): Promise<void> {
    await this.close(at);
    const startedAt = Math.max(at, 0);
    const id = await insertEntry(this.deps.db, { ...entry, startedAt: new Date(startedAt) });
    this.current = { id, startedAt, key };
  }

  private async close(at: number): Promise<void> {
    const current = this.current;
    if (!current) return;
    this.current = null;
    const endedAt = Math.max(at, current.startedAt);
    await endEntry(this.deps.db, current.id, new Date(endedAt));
    const run = async () => {
      this.settling.delete(current.id);
      const figures = await this.deps.figures(current.startedAt, endedAt);
      await setFigures(this.deps.db, current.id, {
        listenersPeak: figures.peak,
        listenersAverage: Math.round(figures.average * 100) / 100,
        performances: figures.heard,
      });
    };
    const timer = setTimeout(() => void this.enqueue(run), Math.max(0, endedAt + this.settleMs - this.now()));
    timer.unref();
    this.settling.set(current.id, { timer, run });
  }

  /** Everything written so far (tests wait for it). */
  async flushed(): Promise<void> {
    let seen: Promise<unknown>;
    do {
      seen = this.chain;
      await seen;
    } while (seen !== this.chain);
  }

  /** The station stops: the row on the air ends now, and every row's figures are written before the database closes. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const off of this.offs) off();
    const at = this.now();
    this.enqueue(() => this.close(at));
    await this.flushed();
    for (const { timer, run } of [...this.settling.values()]) {
      clearTimeout(timer);
      this.enqueue(run);
    }
    await this.flushed();
  }
}
