import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { featuredContent, programs, settings } from '../../db/schema.js';
import { createTestDatabase } from '../../test/helpers.js';
import { markEarlierDemoContent, sampleContent, seedDemoContent } from './service.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(() => database.close());

describe('demo rows seeded before they were marked', () => {
  it('are marked once at start, except what staff edited or added', async () => {
    const db = database.db;
    await seedDemoContent(db);
    // As an earlier version left it: the demo rows unmarked, and no record of marking.
    await db.update(programs).set({ sample: false });
    await db.update(featuredContent).set({ sample: false });
    await db.delete(settings).where(eq(settings.key, 'demo_marked'));
    await db.update(programs).set({ title: 'Our Morning Praise' }).where(eq(programs.dayOfWeek, 'monday'));
    await db
      .update(featuredContent)
      .set({ audioUrl: '/uploads/faith.mp3' })
      .where(eq(featuredContent.title, 'Walking in Faith'));
    await db.insert(featuredContent).values({ title: 'Easter', description: 'Ours', type: 'announcement' });

    expect(await markEarlierDemoContent(db)).toBe(43 - 7 + 3);
    expect(await sampleContent(db)).toEqual({ programs: 36, featured: 3 });
    const monday = await db.select().from(programs).where(eq(programs.dayOfWeek, 'monday'));
    expect(monday.every((row) => !row.sample)).toBe(true);

    // Once: what staff later save unchanged (theirs by then) is not marked again.
    await db.update(programs).set({ sample: false }).where(eq(programs.dayOfWeek, 'tuesday'));
    expect(await markEarlierDemoContent(db)).toBe(0);
    expect(await sampleContent(db)).toEqual({ programs: 29, featured: 3 });
  });

  it('are not looked for on a station seeded marked, or never seeded', async () => {
    const db = database.db;
    expect(await markEarlierDemoContent(db)).toBe(0);
    await seedDemoContent(db);
    await db.update(programs).set({ sample: false }).where(eq(programs.dayOfWeek, 'friday'));
    expect(await markEarlierDemoContent(db)).toBe(0);
    expect(await sampleContent(db)).toEqual({ programs: 36, featured: 4 });
  });
});
