import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/helpers.js';
import { catalogueVersion, whileCatalogueUnchanged } from './catalogue.js';
import type { Database } from './client.js';
import { dumpDatabase, restoreDatabase } from './dump.js';
import { mediaItems, playlistItems, playlists, programs } from './schema.js';

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Database;
beforeAll(async () => {
  handle = await createTestDatabase();
  db = handle.db;
});
afterAll(() => handle?.close());

const media = (id = randomUUID()) => ({
  id,
  title: `Song ${id}`,
  kind: 'music' as const,
  status: 'ready' as const,
  originalName: `${id}.mp3`,
  path: `media/${id}.mp3`,
  format: 'mp3',
  sizeBytes: 1,
});

describe('the catalogue’s change counter', () => {
  it('changes with every write to the library, the playlists or their items, and only then', async () => {
    const id = randomUUID();
    const changes: [string, () => Promise<unknown>][] = [
      ['an item added', () => db.insert(mediaItems).values(media(id))],
      ['an item changed', () => db.update(mediaItems).set({ title: 'New' }).where(eq(mediaItems.id, id))],
      ['a playlist added', () => db.insert(playlists).values({ id, name: `List ${id}` })],
      [
        'a playlist’s items set',
        () => db.insert(playlistItems).values({ playlistId: id, mediaItemId: id, position: 0 }),
      ],
      ['a playlist removed', () => db.delete(playlists).where(eq(playlists.id, id))],
      ['an item removed', () => db.delete(mediaItems).where(eq(mediaItems.id, id))],
    ];
    for (const [what, change] of changes) {
      const before = await catalogueVersion(db);
      await change();
      expect(await catalogueVersion(db), what).not.toBe(before);
    }
    const before = await catalogueVersion(db);
    await db
      .insert(programs)
      .values({ title: 'Not the catalogue', startTime: '06:00', duration: 30, dayOfWeek: 'monday' });
    expect(await catalogueVersion(db)).toBe(before);
  });

  it('reads again after a change made in a transaction, once it is committed', async () => {
    let reads = 0;
    const read = whileCatalogueUnchanged(db, async () => ++reads);
    expect([await read(), await read()]).toEqual([1, 1]);
    await db.transaction(async (tx) => {
      await tx.insert(mediaItems).values(media());
      await tx.insert(mediaItems).values(media());
    });
    expect([await read(), await read()]).toEqual([2, 2]);
  });

  it('does not keep a failed read', async () => {
    let calls = 0;
    const read = whileCatalogueUnchanged(db, async () => {
      if (++calls === 1) throw new Error('database away');
      return calls;
    });
    await expect(read()).rejects.toThrow('database away');
    expect(await read()).toBe(2);
  });

  it('is not data: a backup leaves it out, and a restore counts as a change', async () => {
    await db.insert(mediaItems).values(media());
    const lines: string[] = [];
    await dumpDatabase(db, (line) => void lines.push(line));
    expect(lines.some((line) => line.includes('"table":"catalogue_changes"'))).toBe(false);
    const before = await catalogueVersion(db);
    await restoreDatabase(db, lines, { force: true });
    expect(await catalogueVersion(db)).not.toBe(before);
    const rows = await db.execute(sql`select count(*)::int as n from catalogue_changes`);
    expect(JSON.stringify(rows)).toContain('"n":1');
  });
});
