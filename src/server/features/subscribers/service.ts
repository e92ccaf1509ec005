import type { SubscriberListItem } from '../../../common/subscribers.js';
import type { Database } from '../../db/client.js';
import { subscribersNewestFirst } from './repository.js';

/** SPEC.md section 3's subscriber list item, newest first. */
export async function listSubscribers(db: Database): Promise<SubscriberListItem[]> {
  const rows = await subscribersNewestFirst(db);
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    isActive: row.isActive === 'true',
  }));
}

/**
 * A cell a spreadsheet will not run: quoted, and a leading = + - @ (or tab/CR) defused with an apostrophe
 * (OWASP's advice on CSV injection).
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** DESIGN.md section 7: the newsletter list as CSV for staff. */
export async function subscribersCsv(db: Database): Promise<string> {
  const rows = await subscribersNewestFirst(db);
  const header = ['email', 'name', 'active', 'source', 'subscribed_at'];
  const lines = rows.map((row) =>
    [row.email, row.name ?? '', row.isActive, row.source, row.createdAt.toISOString()].map(csvCell).join(','),
  );
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
}
