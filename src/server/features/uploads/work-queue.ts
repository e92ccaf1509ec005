/**
 * A bounded line for heavy work (decoding pictures, decoding audio): `atOnce` run together, the rest wait
 * their turn in the order they came, and no more than `atOnce + waiting` are let in at all, so a burst of
 * uploads can neither hold the machine's memory nor keep its cores busy. An upload takes its place before
 * its body is read, so the bodies waiting are bounded too.
 */
export class WorkQueue {
  private inside = 0;
  private running = 0;
  private readonly line: (() => void)[] = [];

  constructor(
    readonly atOnce: number,
    readonly waiting: number,
  ) {}

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
      run: (work) => this.run(work),
      leave: () => {
        if (left) return;
        left = true;
        this.inside--;
      },
    };
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.atOnce) await new Promise<void>((resolve) => this.line.push(resolve));
    else this.running++;
    try {
      return await work();
    } finally {
      // The turn passes straight to the next in line, so running never drops and rises again in between.
      const next = this.line.shift();
      if (next) next();
      else this.running--;
    }
  }
}

export interface Place {
  /** Runs the work when its turn comes; each place may run several pieces, one after another. */
  run<T>(work: () => Promise<T>): Promise<T>;
  leave(): void;
}

/** Not let in: the answer's Retry-After and message. */
export const BUSY_RETRY_AFTER_SECONDS = 30;
