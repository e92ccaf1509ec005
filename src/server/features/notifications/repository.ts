import { eq } from 'drizzle-orm';
import {
  NOTIFICATION_EVENTS,
  type DeliveryResult,
  type NotificationTarget,
} from '../../../common/notifications.js';
import type { Database } from '../../db/client.js';
import { notificationTargets } from '../../db/schema.js';

export interface StoredTargetRow {
  target: NotificationTarget;
  enabled: boolean;
  events: unknown;
  settings: unknown;
  last: DeliveryResult | null;
}

export async function readTargetRows(db: Database): Promise<StoredTargetRow[]> {
  const rows = await db.select().from(notificationTargets);
  return rows.map((row) => ({
    target: row.target as NotificationTarget,
    enabled: row.enabled,
    events: row.events,
    settings: row.settings,
    last:
      row.lastAt && row.lastOk !== null
        ? { at: row.lastAt.toISOString(), ok: row.lastOk, message: row.lastMessage ?? '' }
        : null,
  }));
}

/** Saves every target's settings in one transaction; their last results stay. */
export async function writeTargetRows(
  db: Database,
  rows: { target: NotificationTarget; enabled: boolean; events: unknown; settings: unknown }[],
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const row of rows) {
      const values = { ...row, updatedAt: new Date() };
      await tx
        .insert(notificationTargets)
        .values(values)
        .onConflictDoUpdate({
          target: notificationTargets.target,
          set: {
            enabled: row.enabled,
            events: row.events,
            settings: row.settings,
            updatedAt: values.updatedAt,
          },
        });
    }
  });
}

/** Keeps a target's last delivery result (a target never saved gets a row off, with no settings). */
export async function writeLastResult(
  db: Database,
  target: NotificationTarget,
  result: DeliveryResult,
): Promise<void> {
  const last = { lastAt: new Date(result.at), lastOk: result.ok, lastMessage: result.message };
  const updated = await db
    .update(notificationTargets)
    .set(last)
    .where(eq(notificationTargets.target, target))
    .returning({ target: notificationTargets.target });
  if (updated.length > 0) return;
  await db
    .insert(notificationTargets)
    .values({ target, enabled: false, events: [...NOTIFICATION_EVENTS], settings: {}, ...last })
    .onConflictDoUpdate({ target: notificationTargets.target, set: last });
}
