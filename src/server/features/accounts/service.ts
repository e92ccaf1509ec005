import { randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { Role } from '../../../common/accounts.js';
import type { Database } from '../../db/client.js';
import { adminSessions, adminUsers } from '../../db/schema.js';
import { hashPassword } from './passwords.js';

export class AccountError extends Error {
  constructor(
    message: string,
    readonly statusCode = 400,
  ) {
    super(message);
  }
}

export async function createAdminUser(
  db: Database,
  input: { username: string; password: string; role: Role; createdBy?: string },
) {
  const existing = await db
    .select({ id: adminUsers.id })
    .from(adminUsers)
    .where(eq(adminUsers.username, input.username));
  if (existing.length > 0) throw new AccountError('Username already exists', 409);
  const [user] = await db
    .insert(adminUsers)
    .values({
      username: input.username,
      passwordHash: await hashPassword(input.password),
      role: input.role,
      createdBy: input.createdBy ?? null,
    })
    .onConflictDoNothing()
    .returning();
  if (!user) throw new AccountError('Username already exists', 409);
  return user;
}

/** Sets a new password and signs the user out everywhere. */
export async function resetPassword(db: Database, username: string, password: string) {
  const [user] = await db
    .update(adminUsers)
    .set({ passwordHash: await hashPassword(password) })
    .where(eq(adminUsers.username, username))
    .returning({ id: adminUsers.id });
  if (!user) throw new AccountError(`No admin user named "${username}"`, 404);
  await db.delete(adminSessions).where(eq(adminSessions.userId, user.id));
  return user;
}

/**
 * DESIGN.md section 3: the first start with no admin account creates a superuser from
 * ADMIN_USERNAME/ADMIN_PASSWORD, or `admin` with a random password that is shown once.
 */
export async function ensureFirstSuperuser(
  db: Database,
  fromEnv: { username: string; password: string } | undefined,
): Promise<{ username: string; password?: string } | undefined> {
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(adminUsers);
  if (total > 0) return undefined;
  if (fromEnv) {
    await createAdminUser(db, { ...fromEnv, role: 'superuser' });
    return { username: fromEnv.username };
  }
  const password = randomBytes(12).toString('base64url');
  await createAdminUser(db, { username: 'admin', password, role: 'superuser' });
  return { username: 'admin', password };
}
