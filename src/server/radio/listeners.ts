// Owns: listeners of every mount (joins, leaves, relays' listeners), stalled ones dropped, minute figures.
// Must not: write audio to them (each mount's Broadcaster fans it out) nor time the pushes (Announcer).
import type { FastifyBaseLogger } from 'fastify';
import type { Broadcaster, ListenerEvents } from './broadcaster.js';
import { ListenerMeter } from './listener-stats.js';
import { readSendQueues, type QueueFamily } from './send-queues.js';
import type { RadioStorage } from './storage.js';

/**
 * How often listeners that do not read are looked for: each look reads the kernel's connection table, which
 * costs CPU by the machine's memory, not by its listeners (send-queues.ts).
 */
const STALL_CHECK_MS = 5000;

/**
 * Listeners of every mount, counted as they come and go (ListenerMeter), with the listeners of the Icecast
 * relays pulling /stream; those that stopped reading are dropped; each minute's figures are stored.
 */
export class Listeners {
  readonly meter = new ListenerMeter();
  /** Listeners on the Icecast relays pulling /stream (RELAY_URLS), from their status pages. */
  relayed = 0;
  /** What every mount tells of its listeners. */
  readonly events: ListenerEvents;
  private stallTimer: NodeJS.Timeout | null = null;
  private minuteTimer: NodeJS.Timeout | null = null;
  private day = 0;

  constructor(
    private readonly options: {
      mounts: () => Iterable<Broadcaster>;
      /** A count changed (pushed at most every few seconds). */
      changed: () => void;
      storage: RadioStorage;
      timeZone: () => string;
      stallCheckMs?: number;
      /** The engine runs: the next minute is scheduled after each one stored. */
      running: () => boolean;
      log?: FastifyBaseLogger;
    },
  ) {
    this.events = {
      onJoin: () => {
        const id = this.meter.join();
        options.changed();
        return id;
      },
      onLeave: (id: number) => {
        this.meter.leave(id);
        options.changed();
      },
    };
  }

  /** Listeners on every mount (relays not counted). */
  count(): number {
    let count = 0;
    for (const mount of this.options.mounts()) count += mount.listenerCount;
    return count;
  }

  /** The relays' listeners now: counted in now playing and the stored figures like our own. */
  setRelayed(count: number): void {
    if (count === this.relayed) return;
    this.relayed = count;
    this.meter.setRelayed(count);
    this.options.changed();
  }

  /** Stalled listeners looked for, and the minute's figures stored, from now on. */
  start(): void {
    this.stallTimer = setInterval(() => void this.dropStalled(), this.options.stallCheckMs ?? STALL_CHECK_MS);
    this.day = this.options.storage.startOfDay(new Date(), this.options.timeZone()).getTime();
    this.scheduleMinute();
  }

  /** Timers off; the minute so far is stored with `storeMinute`. */
  stop(): void {
    if (this.stallTimer) clearInterval(this.stallTimer);
    this.stallTimer = null;
    if (this.minuteTimer) clearTimeout(this.minuteTimer);
    this.minuteTimer = null;
  }

  /** Writes the minute that just ended; a new station day starts a fresh peak. */
  async storeMinute(): Promise<void> {
    const figures = this.meter.rollMinute();
    const today = this.options.storage.startOfDay(new Date(), this.options.timeZone()).getTime();
    if (today !== this.day) {
      this.day = today;
      this.meter.resetDay();
    }
    await this.options.storage
      .recordMinute(figures)
      .catch((error: unknown) => this.options.log?.warn({ err: error }, 'could not store listener figures'));
  }

  private scheduleMinute(): void {
    const wait = 60_000 - (Date.now() % 60_000);
    this.minuteTimer = setTimeout(() => {
      void this.storeMinute().finally(() => {
        if (this.options.running()) this.scheduleMinute();
      });
    }, wait);
    this.minuteTimer.unref();
  }

  /** One read of the kernel's send queues for the listeners of every mount (they share the web server's port). */
  private async dropStalled(): Promise<void> {
    const families = new Set<QueueFamily>();
    let port = 0;
    for (const mount of this.options.mounts()) {
      const sources = mount.queueSources();
      if (!sources) continue;
      port ||= sources.port;
      for (const family of sources.families) families.add(family);
    }
    if (!port) return;
    const queues = await readSendQueues(port, { families }).catch(() => null);
    if (!queues) return;
    let dropped = 0;
    for (const mount of this.options.mounts()) dropped += mount.dropStalledListeners(queues);
    if (dropped) this.options.log?.info({ dropped }, 'dropped listeners that stopped reading');
  }
}
