import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { NewsletterDetail } from '../../../common/newsletters.js';
import { buildApp } from '../../app.js';
import type { DatabaseHandle } from '../../db/client.js';
import { emailSubscribers, newsletterDeliveries } from '../../db/schema.js';
import { createTestDatabase, testConfig } from '../../test/helpers.js';
import { createLocalBus } from '../../plugins/event-bus.js';
import { startSmtpServer } from '../../test/smtp-server.js';
import { addStaff } from '../../test/staff.js';

const SUBSCRIBERS = 200;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let database: DatabaseHandle;

beforeAll(async () => {
  smtp = await startSmtpServer();
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
  await smtp.close();
});

/** The station as a process would start it, on the one database both runs share. */
async function startStation() {
  const config = testConfig({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://radio.example.org' });
  const bus = createLocalBus();
  const app = await buildApp({ config, db: database.db, bus }, { newsletterTimings: { pollMs: 50 } });
  await app.ready();
  return {
    app,
    async stop() {
      await app.close();
      await bus.close();
    },
  };
}

it('goes on after a restart half-way through 200 subscribers, and each receives exactly one copy', async () => {
  const addresses = Array.from({ length: SUBSCRIBERS }, (_, i) => `listener${i}@example.org`);
  await database.db.insert(emailSubscribers).values(addresses.map((email) => ({ email })));
  const first = await startStation();
  const staff = (await addStaff(database.db, 'newsdesk', 'admin')).headers;
  const res = await first.app.inject({
    method: 'POST',
    url: '/api/newsletters',
    headers: staff,
    payload: { subject: 'Harvest appeal', body: 'Thank you for listening.', perSecond: 100 },
  });
  expect(res.statusCode).toBe(202);
  const { id } = res.json<{ id: string }>();

  await vi.waitFor(() => expect(smtp.received.length).toBeGreaterThanOrEqual(SUBSCRIBERS / 2), {
    timeout: 120_000,
    interval: 10,
  });
  await first.stop();
  const sentBeforeRestart = smtp.received.length;
  expect(sentBeforeRestart).toBeLessThan(SUBSCRIBERS);
  // Stopped in order: the message under way was sent and recorded, none is left `sending`.
  const states = await database.db.select().from(newsletterDeliveries);
  expect(states.filter((row) => row.state === 'sending')).toEqual([]);
  expect(states.filter((row) => row.state === 'sent')).toHaveLength(sentBeforeRestart);

  // As a crash between the SMTP server's accepting and the database's `sent` would leave one.
  const crashed = states.find((row) => row.state === 'queued')!;
  await database.db
    .update(newsletterDeliveries)
    .set({ state: 'sending', attempts: 1 })
    .where(eq(newsletterDeliveries.subscriberId, crashed.subscriberId));

  const second = await startStation();
  try {
    const done = await vi.waitFor(
      async () => {
        const detail = (
          await second.app.inject({ url: `/api/newsletters/${id}`, headers: staff })
        ).json<NewsletterDetail>();
        expect(detail.status).toBe('done');
        return detail;
      },
      { timeout: 120_000, interval: 50 },
    );
    expect(done).toMatchObject({
      recipients: SUBSCRIBERS,
      sent: SUBSCRIBERS - 1,
      unknown: 1,
      failed: 0,
      left: 0,
    });
    expect(done.failures).toEqual([expect.objectContaining({ email: crashed.email, state: 'unknown' })]);
  } finally {
    await second.stop();
  }
  // Exactly one copy each; the address the crash left undecided is not sent a second (at most once).
  const copies = new Map<string, number>();
  for (const mail of smtp.received)
    for (const to of mail.envelopeTo) copies.set(to, (copies.get(to) ?? 0) + 1);
  expect([...copies.values()].every((n) => n === 1)).toBe(true);
  expect(copies.size).toBe(SUBSCRIBERS - 1);
  expect(copies.has(crashed.email)).toBe(false);
}, 300_000);
