/**
 * Plays are counted once per listener address per item per window, so reloading or scripting the
 * play call cannot inflate a sermon's count cheaply. In memory: a restart forgets, which is harmless.
 */
export class RecentPlays {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly windowMs = 30 * 60 * 1000,
    private readonly maxEntries = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** True for a play this address already made of this item inside the window. */
  isRepeat(address: string, itemId: string): boolean {
    const last = this.seen.get(`${address}\n${itemId}`);
    return last !== undefined && this.now() - last < this.windowMs;
  }

  /** Remembers a counted play (only of items that exist, so unknown ids cannot crowd out real ones). */
  remember(address: string, itemId: string) {
    const key = `${address}\n${itemId}`;
    this.seen.delete(key);
    this.seen.set(key, this.now());
    if (this.seen.size > this.maxEntries) this.forgetOldest();
  }

  private forgetOldest() {
    // Map keeps insertion order and re-plays are re-inserted, so the first keys are the oldest.
    for (const key of this.seen.keys()) {
      if (this.seen.size <= this.maxEntries * 0.9) break;
      this.seen.delete(key);
    }
  }
}
