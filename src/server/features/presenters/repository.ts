import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { presenterSourcePasswords } from '../../db/schema.js';

/** The only file of this feature that touches the database: presenters' source password hashes. */

export async function findSourcePassword(db: Database, userId: string) {
  const [row] = await db
    .select()
    .from(presenterSourcePasswords)
    .where(eq(presenterSourcePasswords.userId, userId));
  return row;
}

/** Replaces a presenter's source password hash (the old one stops working at once). */
export async function saveSourcePassword(db: Database, userId: string, passwordHash: string, setAt: Date) {
  await db
    .insert(presenterSourcePasswords)
    .values({ userId, passwordHash, setAt })
    .onConflictDoUpdate({ target: presenterSourcePasswords.userId, set: { passwordHash, setAt } });
}
