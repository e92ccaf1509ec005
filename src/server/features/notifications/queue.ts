/** How deliveries are retried, timed out and bounded; tests pass shorter ones. */
export interface QueueTimings {
  /** Waits before the 2nd, 3rd… attempt: five attempts in all by default. */
  retryDelaysMs: number[];
  /** Each request's limit. */
  timeoutMs: number;
  /** Deliveries waiting or under way; past it the oldest waiting one is dropped. */
  maxQueued: number;
}

export const DEFAULT_TIMINGS: QueueTimings = {
  retryDelaysMs: [10_000, 60_000, 5 * 60_000, 15 * 60_000],
  timeoutMs: 10_000,
  maxQueued: 200,
};

/** At most this many deliveries are sent at once; one slow target never holds the others back for long. */
const MAX_RUNNING = 4;

export interface QueuedJob {
  /** For the log: which event to which target. */
  label: string;
  /** One attempt; throws with the reason in plain words when it fails. */
  send(): Promise<void>;
  /** Told after each attempt: ok, or the reason and whether it will be tried again (and when). */
  report(outcome: { ok: true } | { ok: false; reason: string; retryInMs?: number }): Promise<void>;
}

interface Entry {
  job: QueuedJob;
  attempt: number;
  dueAt: number;
  queuedAt: number;
}

export interface QueueLog {
  warn(message: string): void;
}

/**
 * Deliveries in the background: each one is tried, then retried after the next delay until it succeeds or the
 * delays run out. A failure or a hang of one delivery never touches another.
 */
export class DeliveryQueue {
  private waiting: Entry[] = [];
  private running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private sequence = 0;
  private readonly stopper = new AbortController();
  /** Aborted by close(): requests under way stop rather than hold the station's shutdown for their timeout. */
  readonly stopping: AbortSignal = this.stopper.signal;

  constructor(
    private readonly timings: QueueTimings,
    private readonly log: QueueLog,
  ) {}

  /** Queued deliveries, waiting or under way. */
  get size(): number {
    return this.waiting.length + this.running.size;
  }

  add(job: QueuedJob): void {
    if (this.closed) return;
    while (this.size >= this.timings.maxQueued && this.waiting.length > 0) {
      const oldest = this.waiting.reduce((a, b) => (b.queuedAt < a.queuedAt ? b : a));
      this.waiting.splice(this.waiting.indexOf(oldest), 1);
      this.log.warn(
        `Notification queue full (${this.timings.maxQueued}): dropped the oldest delivery, ${oldest.job.label}`,
      );
    }
    if (this.size >= this.timings.maxQueued) {
      this.log.warn(`Notification queue full (${this.timings.maxQueued}): dropped ${job.label}`);
      return;
    }
    // queuedAt orders by arrival even within one millisecond.
    this.waiting.push({ job, attempt: 1, dueAt: Date.now(), queuedAt: this.sequence++ });
    this.pump();
  }

  /** Stops: nothing more is tried; attempts under way are stopped (see `stopping`). */
  async close(): Promise<void> {
    this.closed = true;
    this.stopper.abort();
    clearTimeout(this.timer);
    if (this.waiting.length > 0)
      this.log.warn(`Notifications not sent because the station is stopping: ${this.waiting.length}`);
    this.waiting = [];
    await Promise.allSettled([...this.running]);
  }

  private pump(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed) return;
    const now = Date.now();
    while (this.running.size < MAX_RUNNING) {
      const due = this.waiting.filter((entry) => entry.dueAt <= now);
      if (due.length === 0) break;
      const next = due.reduce((a, b) => (b.dueAt < a.dueAt ? b : a));
      this.waiting.splice(this.waiting.indexOf(next), 1);
      const attempt = this.attempt(next).finally(() => {
        this.running.delete(attempt);
        this.pump();
      });
      this.running.add(attempt);
    }
    if (this.running.size < MAX_RUNNING && this.waiting.length > 0) {
      const soonest = Math.min(...this.waiting.map((entry) => entry.dueAt));
      this.timer = setTimeout(() => this.pump(), Math.max(0, soonest - now));
    }
  }

  private async attempt(entry: Entry): Promise<void> {
    let outcome: Parameters<QueuedJob['report']>[0];
    try {
      await entry.job.send();
      outcome = { ok: true };
    } catch (error) {
      const retryInMs = this.closed ? undefined : this.timings.retryDelaysMs[entry.attempt - 1];
      outcome = { ok: false, reason: (error as Error).message, retryInMs };
    }
    await entry.job.report(outcome).catch((error: unknown) => {
      this.log.warn(`Could not keep the result of ${entry.job.label}: ${String(error)}`);
    });
    if (!outcome.ok && outcome.retryInMs !== undefined && !this.closed)
      this.waiting.push({ ...entry, attempt: entry.attempt + 1, dueAt: Date.now() + outcome.retryInMs });
  }
}
