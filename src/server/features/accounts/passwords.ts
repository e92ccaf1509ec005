import { hash, verify } from '@node-rs/argon2';

// One of OWASP's equivalent argon2id settings (7 MiB, 5 passes, 1 lane): as costly to attack as its
// 19 MiB / 2 baseline, with a smaller peak for a 1 GB machine. Hashes keep their own settings, so older
// ones still verify.
const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id, a const enum */,
  memoryCost: 7_168,
  timeCost: 5,
  parallelism: 1,
} as const;

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
