import { randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from '../accounts/passwords.js';

/** How many passwords reached argon2 verification in this process (bench/login reads it). */
export const passwordCheckMetrics = { verifications: 0 };

/**
 * Each argon2 verification holds 19 MiB and a core for a while; a flood of guesses from many addresses
 * must not exhaust the server. A few run at once, a bounded queue waits, the rest are turned away.
 */
const MAX_RUNNING = 4;
const MAX_WAITING = 64;
let running = 0;
const waiting: (() => void)[] = [];

export class PasswordCheckBusyError extends Error {}

async function withVerificationSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) {
    if (waiting.length >= MAX_WAITING) throw new PasswordCheckBusyError('too many password checks waiting');
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running += 1;
  }
  try {
    return await work();
  } finally {
    // Hand the slot straight to the next in line, or give it back.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

let dummyHash: Promise<string> | undefined;
/** A hash of nothing anyone knows, so an unknown username costs the same argon2 time as a known one. */
export const prepareDummyHash = () => (dummyHash ??= hashPassword(randomBytes(18).toString('base64url')));

/**
 * True only when the account exists and the password is its password; always spends one verification.
 * Throws PasswordCheckBusyError when the server is already checking as many passwords as it will.
 */
export async function passwordMatches(passwordHash: string | undefined, password: string): Promise<boolean> {
  const against = passwordHash ?? (await prepareDummyHash());
  return withVerificationSlot(async () => {
    passwordCheckMetrics.verifications += 1;
    const ok = await verifyPassword(against, password);
    return ok && passwordHash !== undefined;
  });
}
