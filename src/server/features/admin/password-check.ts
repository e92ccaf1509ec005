import { randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from '../accounts/passwords.js';

/** How many passwords reached argon2 verification in this process (bench/login reads it). */
export const passwordCheckMetrics = { verifications: 0 };

let dummyHash: Promise<string> | undefined;
/** A hash of nothing anyone knows, so an unknown username costs the same argon2 time as a known one. */
export const prepareDummyHash = () => (dummyHash ??= hashPassword(randomBytes(18).toString('base64url')));

/** True only when the account exists and the password is its password; always spends one verification. */
export async function passwordMatches(passwordHash: string | undefined, password: string): Promise<boolean> {
  passwordCheckMetrics.verifications += 1;
  const against = passwordHash ?? (await prepareDummyHash());
  const ok = await verifyPassword(against, password);
  return ok && passwordHash !== undefined;
}
