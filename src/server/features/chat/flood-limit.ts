import { CHAT_FLOOD } from '../../../common/chat-limits.js';

/**
 * Per key (a connection, an address): at most CHAT_FLOOD.messages in CHAT_FLOOD.windowMs, then
 * CHAT_FLOOD.quietMs of quiet. Keys are forgotten once quiet, so memory follows who is chatting.
 */
export class FloodLimit {
  private readonly recent = new Map<string, { times: number[]; quietUntil: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Milliseconds the key must wait, or 0 when this message may go (and is counted). */
  take(key: string): number {
    const now = this.now();
    const entry = this.recent.get(key) ?? { times: [], quietUntil: 0 };
    if (entry.quietUntil > now) return entry.quietUntil - now;
    entry.times = entry.times.filter((t) => now - t < CHAT_FLOOD.windowMs);
    if (entry.times.length >= CHAT_FLOOD.messages) {
      entry.quietUntil = now + CHAT_FLOOD.quietMs;
      entry.times = [];
      this.recent.set(key, entry);
      return CHAT_FLOOD.quietMs;
    }
    entry.times.push(now);
    this.recent.set(key, entry);
    return 0;
  }

  /** Drops keys with nothing recent (called now and then). */
  sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.recent) {
      if (entry.quietUntil <= now && entry.times.every((t) => now - t >= CHAT_FLOOD.windowMs))
        this.recent.delete(key);
    }
  }
}
