import { and, desc, eq } from 'drizzle-orm';
import type { Role } from '../../../common/accounts.js';
import type { UserListItem } from '../../../common/admin.js';
import type { Database } from '../../db/client.js';
import { adminUsers } from '../../db/schema.js';
import { AccountError, createAdminUser } from '../accounts/service.js';
import { hashPassword } from '../accounts/passwords.js';
import { revokeUserSessions } from './sessions.js';

type UserRow = typeof adminUsers.$inferSelect;
type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

export const USER_NOT_FOUND = 'User not found';
export const LAST_SUPERUSER = {
  demote: 'The last active superuser cannot be made an admin. Make another superuser first.',
  deactivate: 'The last active superuser cannot be deactivated. Make another superuser first.',
  delete: 'The last active superuser cannot be deleted. Make another superuser first.',
};
export const NOT_YOURSELF = {
  deactivate: 'You cannot deactivate your own account',
  delete: 'You cannot delete your own account',
};

/** SPEC.md section 3's user list item: what the User Management tab shows, never the hash. */
export const toUserListItem = (row: UserRow): UserListItem => ({
  id: row.id,
  username: row.username,
  role: row.role,
  isActive: row.isActive === 'true',
  createdAt: row.createdAt.toISOString(),
  lastLogin: row.lastLogin?.toISOString() ?? null,
});

export async function listUsers(db: Database) {
  const rows = await db.select().from(adminUsers).orderBy(desc(adminUsers.createdAt), adminUsers.username);
  return rows.map(toUserListItem);
}

export async function findUserByUsername(db: Database, username: string) {
  const [row] = await db.select().from(adminUsers).where(eq(adminUsers.username, username));
  return row;
}

export async function findUserById(db: Database, id: string) {
  const [row] = await db.select().from(adminUsers).where(eq(adminUsers.id, id));
  return row;
}

/** SPEC.md section 6: an admin creates admins only; a superuser chooses the role. */
export async function createUser(
  db: Database,
  creator: { username: string; role: Role },
  input: { username: string; password: string; role: Role },
) {
  if (input.role === 'superuser' && creator.role !== 'superuser') {
    throw new AccountError('Only a superuser can create superuser accounts', 403);
  }
  const row = await createAdminUser(db, { ...input, createdBy: creator.username });
  return toUserListItem(row);
}

export async function setPassword(db: Database, userId: string, password: string) {
  const passwordHash = await hashPassword(password);
  await db.update(adminUsers).set({ passwordHash }).where(eq(adminUsers.id, userId));
}

/**
 * Runs a change to one user while the active superusers are locked, so two superusers demoting
 * each other at the same moment cannot leave the station with none.
 */
async function changeUser<T>(
  db: Database,
  userId: string,
  change: (tx: Tx, user: UserRow, activeSuperusers: string[]) => Promise<T>,
) {
  return db.transaction(async (tx) => {
    const supers = await tx
      .select({ id: adminUsers.id })
      .from(adminUsers)
      .where(and(eq(adminUsers.role, 'superuser'), eq(adminUsers.isActive, 'true')))
      .for('update');
    const [user] = await tx.select().from(adminUsers).where(eq(adminUsers.id, userId)).for('update');
    if (!user) throw new AccountError(USER_NOT_FOUND, 404);
    return change(
      tx,
      user,
      supers.map((s) => s.id),
    );
  });
}

const isLastActiveSuperuser = (user: UserRow, activeSuperusers: string[]) =>
  activeSuperusers.length === 1 && activeSuperusers[0] === user.id;

export async function updateRole(db: Database, userId: string, role: Role) {
  return changeUser(db, userId, async (tx, user, supers) => {
    if (role !== 'superuser' && isLastActiveSuperuser(user, supers))
      throw new AccountError(LAST_SUPERUSER.demote, 409);
    const [updated] = await tx.update(adminUsers).set({ role }).where(eq(adminUsers.id, userId)).returning();
    return toUserListItem(updated!);
  });
}

/** Deactivation signs the user out everywhere at once. */
export async function setActive(db: Database, actorId: string, userId: string, isActive: boolean) {
  const item = await changeUser(db, userId, async (tx, user, supers) => {
    if (!isActive && user.id === actorId) throw new AccountError(NOT_YOURSELF.deactivate, 400);
    if (!isActive && isLastActiveSuperuser(user, supers))
      throw new AccountError(LAST_SUPERUSER.deactivate, 409);
    const [updated] = await tx
      .update(adminUsers)
      .set({ isActive: isActive ? 'true' : 'false' })
      .where(eq(adminUsers.id, userId))
      .returning();
    return toUserListItem(updated!);
  });
  if (!isActive) await revokeUserSessions(db, userId);
  return item;
}

/** Deleting a user deletes their sessions with them (foreign key cascade). */
export async function deleteUser(db: Database, actorId: string, userId: string) {
  await changeUser(db, userId, async (tx, user, supers) => {
    if (user.id === actorId) throw new AccountError(NOT_YOURSELF.delete, 400);
    if (isLastActiveSuperuser(user, supers)) throw new AccountError(LAST_SUPERUSER.delete, 409);
    await tx.delete(adminUsers).where(eq(adminUsers.id, userId));
  });
}
