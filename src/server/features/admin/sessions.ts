import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, ne, or } from 'drizzle-orm';
import type { Role } from '../../../common/accounts.js';
import type { Database } from '../../db/client.js';
import { adminSessions, adminUsers } from '../../db/schema.js';

/**
 * A session lasts a fixed 12 hours from sign-in (a working day at the station), then the staff member
 * signs in again. Fixed rather than sliding: no write on every request, and a stolen token dies on time.
 */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
const TOKEN_BYTES = 32;
/** base64url of 32 bytes is 43 characters; anything else is not one of our tokens. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface SessionUser {
  sessionId: string;
  id: string;
  username: string;
  role: Role;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Starts a session: the token is returned once, only its SHA-256 is stored. */
export async function createSession(db: Database, userId: string, now = new Date()) {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  const [session] = await db
    .insert(adminSessions)
    .values({ userId, tokenHash: hashToken(token), expiresAt })
    .returning({ id: adminSessions.id });
  // Forget this user's dead sessions while we are here, so the table does not grow forever.
  await db
    .delete(adminSessions)
    .where(
      and(
        eq(adminSessions.userId, userId),
        or(lt(adminSessions.expiresAt, now), lt(adminSessions.revokedAt, now)),
      ),
    );
  return { token, expiresAt, sessionId: session!.id };
}

/**
 * The signed-in user behind a bearer token, read fresh on every request so that deactivation,
 * deletion, role changes and revocation apply at once. Null when the token is unknown, expired,
 * revoked, or its user is inactive or gone.
 */
export async function findSessionUser(db: Database, token: string): Promise<SessionUser | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const [row] = await db
    .select({
      sessionId: adminSessions.id,
      id: adminUsers.id,
      username: adminUsers.username,
      role: adminUsers.role,
    })
    .from(adminSessions)
    .innerJoin(adminUsers, eq(adminUsers.id, adminSessions.userId))
    .where(
      and(
        eq(adminSessions.tokenHash, hashToken(token)),
        isNull(adminSessions.revokedAt),
        gt(adminSessions.expiresAt, new Date()),
        eq(adminUsers.isActive, 'true'),
      ),
    );
  return row ?? null;
}

export async function revokeSession(db: Database, sessionId: string) {
  await db
    .update(adminSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(adminSessions.id, sessionId), isNull(adminSessions.revokedAt)));
}

/** Signs a user out everywhere, or everywhere but the session they are using. */
export async function revokeUserSessions(db: Database, userId: string, exceptSessionId?: string) {
  await db
    .update(adminSessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(adminSessions.userId, userId),
        isNull(adminSessions.revokedAt),
        exceptSessionId ? ne(adminSessions.id, exceptSessionId) : undefined,
      ),
    );
}
