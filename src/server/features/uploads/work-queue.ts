import { giveMemoryBack } from './give-back.js';

/**
 * Turns at heavy work (decoding pictures, decoding audio): `atOnce` run together, the rest wait their turn in
 * the order they came.
 */
export class Turns {
  private running = 0;
  private readonly line: (() => void)[] = [];

  /**
   * `tidy` runs as each turn begins and ends, and every `tidyMs` while one runs (its failure is ignored).
   */
  constructor(
    readonly atOnce: number,
    private readonly tidy?: { run: () => Promise<void>; everyMs: number },
  ) {}

  /** How many wait for a turn. */
  get waiting() {
    return this.line.length;
  }

  async take<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.atOnce) await new Promise<void>((resolve) => this.line.push(resolve));
    else this.running++;
    const tidy = () => this.tidy?.run().catch(() => undefined);
    const timer = this.tidy && setInterval(tidy, this.tidy.everyMs);
    try {
      await tidy();
      return await work();
    } finally {
      clearInterval(timer);
      await tidy();
      // The turn passes straight to the next in line, so running never drops and rises again in between.
      const next = this.line.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/**
 * One picture, one sermon or one library measurement is decoded at a time in the whole station: each holds
 * tens of megabytes while it is decoded (libvips, ffmpeg), and side by side they would take a small machine
 * past its memory. What they free is handed back to the system as each turn begins and ends, and twice a second
 * while it runs: libvips frees and allocates again megabytes at a time (measured by bench/uploads).
 */
export const heavyWork = new Turns(1, { run: giveMemoryBack, everyMs: 500 });

/**
 * A bounded line for one kind of heavy work: it runs in `turns`, and no more than `turns.atOnce + waiting`
 * are let in at all, so a burst of uploads can neither hold the machine's memory nor keep its cores busy.
 * An upload takes its place before its body is read, so the bodies waiting are bounded too.
 */
export class WorkQueue {
  private inside = 0;

  constructor(
    readonly turns: Turns,
    readonly waiting: number,
  ) {}

  get atOnce() {
    return this.turns.atOnce;
  }

  /** How many are let in (running, waiting, or still receiving their file). */
  get admitted() {
    return this.inside;
  }

  /** A place in the line, or undefined when it is full (answer 503 then). Call `leave` when done. */
  admit(): Place | undefined {
    if (this.inside >= this.atOnce + this.waiting) return undefined;
    this.inside++;
    let left = false;
    return {
      run: (work) => this.turns.take(work),
      leave: () => {
        if (left) return;
        left = true;
        this.inside--;
      },
    };
  }
}

export interface Place {
  /** Runs the work when its turn comes; each place may run several pieces, one after another. */
  run<T>(work: () => Promise<T>): Promise<T>;
  leave(): void;
}

/** Not let in: the answer's Retry-After and message. */
export const BUSY_RETRY_AFTER_SECONDS = 30;
