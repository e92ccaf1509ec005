// Owns: counting listeners as they come and go: the minute's peak and seconds listened, today's peak.
// Must not: store the figures (listeners.ts hands each minute to storage) nor touch connections.
export interface MinuteFigures {
  minute: Date;
  listeners: number;
  peak: number;
  listeningSeconds: number;
}

/**
 * Counts listeners as they come and go: the peak and the seconds listened within the current minute,
 * handed over once a minute to be stored.
 */
export class ListenerMeter {
  private minuteStart: number;
  private peak = 0;
  private listenedMs = 0;
  private readonly connected = new Map<number, number>();
  private nextId = 0;
  /** Highest count seen today (station-day), kept in memory for the live figure. */
  peakToday = 0;
  /** Listeners on relays (from their status pages), counted as one pool since `relayedSince`. */
  private relayed = 0;
  private relayedSince = 0;

  constructor(
    private current = 0,
    now = Date.now(),
  ) {
    this.minuteStart = floorMinute(now);
  }

  get listeners(): number {
    return this.current;
  }

  /** A listener joined; returns the handle to pass to `leave`. */
  join(now = Date.now()): number {
    this.current++;
    this.peak = Math.max(this.peak, this.current);
    this.peakToday = Math.max(this.peakToday, this.current);
    const id = this.nextId++;
    this.connected.set(id, now);
    return id;
  }

  leave(id: number, now = Date.now()): void {
    const since = this.connected.get(id);
    if (since === undefined) return;
    this.connected.delete(id);
    this.current--;
    this.listenedMs += now - Math.max(since, this.minuteStart);
  }

  /**
   * The relays' listeners now (read from their status every few seconds): they count towards the listeners,
   * peak and listening time as if they had joined here, without knowing each one's comings and goings.
   */
  setRelayed(count: number, now = Date.now()): void {
    if (count === this.relayed) return;
    this.listenedMs += this.relayed * (now - Math.max(this.relayedSince, this.minuteStart));
    this.current += count - this.relayed;
    this.relayed = count;
    this.relayedSince = now;
    this.peak = Math.max(this.peak, this.current);
    this.peakToday = Math.max(this.peakToday, this.current);
  }

  /** Closes the minute that began at `minuteStart`: its figures, and a fresh minute begins at `now`. */
  rollMinute(now = Date.now()): MinuteFigures {
    const end = Math.max(now, this.minuteStart);
    let listened = this.listenedMs;
    for (const since of this.connected.values()) listened += end - Math.max(since, this.minuteStart);
    listened += this.relayed * (end - Math.max(this.relayedSince, this.minuteStart));
    const figures = {
      minute: new Date(this.minuteStart),
      listeners: this.current,
      peak: Math.max(this.peak, this.current),
      listeningSeconds: Math.round(listened / 1000),
    };
    this.minuteStart = end;
    this.peak = this.current;
    this.listenedMs = 0;
    return figures;
  }

  resetDay(): void {
    this.peakToday = this.current;
  }
}

export const floorMinute = (ms: number) => Math.floor(ms / 60_000) * 60_000;
