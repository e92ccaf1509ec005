import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { mediaItems, programs } from '../../db/schema.js';
import { createTestDatabase } from '../../test/helpers.js';
import { playableItems, playableItemsReader } from '../library/service.js';
import { createPlaylist, openPlaylists, playlistRotation, setPlaylistItems } from '../playlists/service.js';
import { OnAir, type Playable } from './service.js';

// The schedule keeps the library and the playlists it read until the catalogue changes (db/catalogue.ts):
// the plan it shows must be the one it would show reading everything afresh, before and after a change.

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Database;
const folders = { media: '/srv/station/media', uploads: '/srv/station/uploads' };
const T0 = Date.UTC(2026, 10, 2, 5, 0, 0); // a Monday
let clock = T0;

beforeAll(async () => {
  handle = await createTestDatabase();
  db = handle.db;
});
afterAll(() => handle?.close());

async function addMedia(n: number, kind: 'music' | 'sermon' = 'music') {
  const id = randomUUID();
  await db.insert(mediaItems).values({
    id,
    title: `${kind} ${n}`,
    artist: `Artist ${n % 7}`,
    kind,
    status: 'ready',
    originalName: `${id}.mp3`,
    path: `media/${id}.mp3`,
    format: 'mp3',
    sizeBytes: 1000,
    durationSeconds: 180 + n,
    createdAt: new Date(T0 - 86_400_000 + n * 1000),
  });
  return id;
}

function onAir(library: () => Promise<Playable[]>, fresh: boolean) {
  const playlists = openPlaylists({ db, folders });
  return new OnAir({
    db,
    timeZone: () => 'UTC',
    library,
    // Read afresh: a new reader for every snapshot, so nothing is kept from one plan to the next.
    rotation: playlistRotation(
      fresh ? { ...playlists, snapshot: () => openPlaylists({ db, folders }).snapshot() } : playlists,
      () => clock,
    ),
    exists: { media: async () => true, playlist: async () => true },
    now: () => clock,
  });
}

describe('the schedule’s plan with the catalogue kept between reads', () => {
  it('is the plan read afresh, before and after the library and playlists change', async () => {
    const songs = await Promise.all(Array.from({ length: 40 }, (_, n) => addMedia(n)));
    await addMedia(100, 'sermon');
    for (const [name, slice] of [
      ['Morning', songs.slice(0, 20)],
      ['Evening', songs.slice(20)],
    ] as const) {
      const saved = await createPlaylist(db, { name, in_rotation: true });
      if (saved.outcome !== 'saved') throw new Error(saved.outcome);
      await setPlaylistItems(db, saved.playlist.id, [...slice]);
    }
    await db.insert(programs).values({
      title: 'Sunday Word',
      startTime: '07:00',
      duration: 60,
      dayOfWeek: 'monday',
      airs: { kind: 'newest', mediaKind: 'sermon', overrun: 'fade', start: 'on_time', fillPlaylistId: null },
    });
    const kept = onAir(playableItemsReader({ db, folders }), false);
    const fresh = onAir(() => playableItems({ db, folders }), true);
    const plan = async (station: OnAir<unknown>) => (await station.upcoming(6)).entries;

    const before = await plan(kept);
    expect(before.length).toBeGreaterThan(50);
    expect(await plan(fresh)).toEqual(before);
    expect(await plan(kept)).toEqual(before);

    // A newer sermon and a song renamed: each shows in the kept plan at once.
    const sermon = await addMedia(200, 'sermon');
    await db.update(mediaItems).set({ title: 'Renamed' }).where(eq(mediaItems.id, before[0]!.mediaId!));
    clock += 3000; // past the rotation's own two seconds
    const after = await plan(kept);
    expect(after).toEqual(await plan(fresh));
    expect(after).not.toEqual(before);
    expect(after.find((entry) => entry.programme?.title === 'Sunday Word')?.mediaId).toBe(sermon);
    expect(after.some((entry) => entry.title === 'Renamed')).toBe(true);
  });
});
