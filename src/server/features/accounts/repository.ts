import { and, count, desc, eq, gt, isNull, lt, ne, or } from 'drizzle-orm';
import type { Role } from '../../../common/accounts.js';
import type { Database } from '../../db/client.js';
import { adminSessions, adminUsers } from '../../db/schema.js';

/** The only file of this feature that touches the database: staff accounts and their sessions. */

export type UserRow = typeof adminUsers.$inferSelect;
type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

export interface SessionUser {
  sessionId: string;
  id: string;
  username: string;
  role: Role;
}

export async function countUsers(db: Database) {
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(adminUsers);
  return total;
}

export async function findUserByUsername(db: Database, username: string) {
  const [row] = await db.select().from(adminUsers).where(eq(adminUsers.username, username));
  return row;
}

export async function findUserById(db: Database, id: string) {
  const [row] = await db.select().from(adminUsers).where(eq(adminUsers.id, id));
  return row;
}

export const listUserRows = (db: Database) =>
  db.select().from(adminUsers).orderBy(desc(adminUsers.createdAt), adminUsers.username);

/** Undefined when the username is taken (also by a concurrent insert). */
export async function insertUser(
  db: Database,
  values: { username: string; passwordHash: string; role: Role; createdBy: string | null },
) {
  const [user] = await db.insert(adminUsers).values(values).onConflictDoNothing().returning();
  return user;
}

export async function setPasswordHash(
  db: Database,
  where: { id: string } | { username: string },
  hash: string,
) {
  const [user] = await db
    .update(adminUsers)
    .set({ passwordHash: hash })
    .where('id' in where ? eq(adminUsers.id, where.id) : eq(adminUsers.username, where.username))
    .returning({ id: adminUsers.id });
  return user;
}

export async function setLastLogin(db: Database, userId: string, at: Date) {
  await db.update(adminUsers).set({ lastLogin: at }).where(eq(adminUsers.id, userId));
}

/** What a change to one user may do inside its transaction. */
export interface UserChange {
  user: UserRow;
  activeSuperusers: string[];
  update(values: { role?: Role; isActive?: 'true' | 'false' }): Promise<UserRow>;
  remove(): Promise<void>;
}

/**
 * Runs a change to one user while the active superusers are locked, so two superusers demoting
 * each other at the same moment cannot leave the station with none. Undefined when the user is gone.
 */
export async function changeUser<T>(
  db: Database,
  userId: string,
  change: (target: UserChange) => Promise<T>,
): Promise<{ result: T } | undefined> {
  return db.transaction(async (tx: Tx) => {
    const supers = await tx
      .select({ id: adminUsers.id })
      .from(adminUsers)
      .where(and(eq(adminUsers.role, 'superuser'), eq(adminUsers.isActive, 'true')))
      .for('update');
    const [user] = await tx.select().from(adminUsers).where(eq(adminUsers.id, userId)).for('update');
    if (!user) return undefined;
    const result = await change({
      user,
      activeSuperusers: supers.map((s) => s.id),
      update: async (values) => {
        const [updated] = await tx
          .update(adminUsers)
          .set(values)
          .where(eq(adminUsers.id, userId))
          .returning();
        return updated!;
      },
      remove: async () => {
        await tx.delete(adminUsers).where(eq(adminUsers.id, userId));
      },
    });
    return { result };
  });
}

/** Stores a session by its token's hash, and forgets this user's dead sessions so the table does not grow forever. */
export async function insertSession(
  db: Database,
  session: { userId: string; tokenHash: string; expiresAt: Date },
  now: Date,
) {
  const [row] = await db.insert(adminSessions).values(session).returning({ id: adminSessions.id });
  await db
    .delete(adminSessions)
    .where(
      and(
        eq(adminSessions.userId, session.userId),
        or(lt(adminSessions.expiresAt, now), lt(adminSessions.revokedAt, now)),
      ),
    );
  return row!.id;
}

/** The live session with this token hash and its active user, or null. */
export async function findLiveSession(
  db: Database,
  tokenHash: string,
  now: Date,
): Promise<SessionUser | null> {
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
        eq(adminSessions.tokenHash, tokenHash),
        isNull(adminSessions.revokedAt),
        gt(adminSessions.expiresAt, now),
        eq(adminUsers.isActive, 'true'),
      ),
    );
  return row ?? null;
}

/** Revokes one session, or every session of a user (but one, when given). */
export async function revokeSessions(
  db: Database,
  which: { sessionId: string } | { userId: string; exceptSessionId?: string },
) {
  const target =
    'sessionId' in which
      ? eq(adminSessions.id, which.sessionId)
      : and(
          eq(adminSessions.userId, which.userId),
          which.exceptSessionId ? ne(adminSessions.id, which.exceptSessionId) : undefined,
        );
  await db
    .update(adminSessions)
    .set({ revokedAt: new Date() })
    .where(and(target, isNull(adminSessions.revokedAt)));
}
