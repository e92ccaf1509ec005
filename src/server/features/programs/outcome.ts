/** What a schedule write comes to: the saved thing, or why it was refused (the route picks the status). */
export type Failure = { ok: false; reason: 'invalid' | 'not-found' | 'overlap'; message: string };
export type Outcome<T> = { ok: true; value: T } | Failure;
export const fail = (reason: Failure['reason'], message: string): Failure => ({ ok: false, reason, message });
