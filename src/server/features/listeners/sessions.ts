import { countsAsListener, playerOf, type PlayerKind } from '../../../common/as-run.js';
import type { Database } from '../../db/client.js';
import { insertSession, sessionsOverlapping } from './sessions-repository.js';
import { concurrency, type Interval } from './sweep.js';

interface OpenSession {
  startedAt: number;
  bitrate: number;
  player: PlayerKind;
  country: string | null;
  via: 'direct' | 'relay';
}

/**
 * Listener sessions as the broadcaster sees them: every /stream connection from its start to its end, and the
 * relays' listeners from their status pages (a count: a rise opens sessions, a fall closes the newest). A
 * session is stored when it ends, if it counts as a listener (src/common/as-run.ts countsAsListener); the
 * open ones are kept here, so figures asked for now include them.
 */
export class ListenerSessions {
  private readonly open = new Map<number, OpenSession>();
  private nextId = 0;
  private relayed: number[] = [];
  private writes = new Set<Promise<void>>();

  constructor(
    private readonly db: Database,
    private readonly options: {
      log?: { warn(details: object, message: string): void };
      now?: () => number;
      /** The main bitrate, which relays pull. */
      relayBitrate?: () => number;
    } = {},
  ) {}

  private now() {
    return this.options.now?.() ?? Date.now();
  }

  /** A listener connected; returns what to call when they leave. */
  join(details: { bitrate: number; userAgent?: string; country?: string | null }): () => void {
    const id = this.nextId++;
    this.open.set(id, {
      startedAt: this.now(),
      bitrate: details.bitrate,
      player: playerOf(details.userAgent),
      country: details.country ?? null,
      via: 'direct',
    });
    return () => this.leave(id);
  }

  /** The relays' listeners now (read every few seconds from their status pages). */
  setRelayed(count: number): void {
    while (this.relayed.length < count) {
      const id = this.nextId++;
      this.relayed.push(id);
      this.open.set(id, {
        startedAt: this.now(),
        bitrate: this.options.relayBitrate?.() ?? 128,
        player: 'relay',
        country: null,
        via: 'relay',
      });
    }
    while (this.relayed.length > count) this.leave(this.relayed.pop()!);
  }

  private leave(id: number): void {
    const session = this.open.get(id);
    if (!session) return;
    this.open.delete(id);
    const endedAt = this.now();
    if (!countsAsListener((endedAt - session.startedAt) / 1000)) return;
    const write = insertSession(this.db, {
      ...session,
      startedAt: new Date(session.startedAt),
      endedAt: new Date(endedAt),
    })
      .catch((error: unknown) => this.options.log?.warn({ err: error }, 'listener session not stored'))
      .finally(() => this.writes.delete(write));
    this.writes.add(write);
  }

  /** Every session still open ends now (the station stops), and is stored before the database closes. */
  async closeAll(): Promise<void> {
    this.relayed = [];
    for (const id of [...this.open.keys()]) this.leave(id);
    await Promise.all(this.writes);
  }

  /**
   * Peak and average listeners over [from, to), and the sessions that heard any of it: stored sessions, and
   * open ones that count as listeners already. Asked once every session that began by `to` has either ended
   * (and is stored, if it counted) or lasted long enough to count: MIN_LISTENER_SECONDS after `to`.
   */
  async figuresBetween(from: number, to: number) {
    await Promise.all(this.writes);
    const now = this.now();
    const intervals: Interval[] = (await sessionsOverlapping(this.db, new Date(from), new Date(to))).map(
      (row) => ({ start: row.startedAt.getTime(), end: row.endedAt.getTime() }),
    );
    for (const session of this.open.values())
      if (countsAsListener((now - session.startedAt) / 1000))
        intervals.push({ start: session.startedAt, end: now });
    return concurrency(intervals, from, to);
  }

  /** Listeners connected now (counted or not yet). */
  get size(): number {
    return this.open.size;
  }
}
