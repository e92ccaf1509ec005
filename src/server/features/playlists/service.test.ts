import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { mediaItems } from '../../db/schema.js';
import { createTestDatabase } from '../../test/helpers.js';
import { removeMedia, type Library } from '../library/service.js';
import {
  createPlaylist,
  playlistHoldingMedia,
  playlistRotation,
  openPlaylists,
  setPlaylistItems,
  updatePlaylist,
  type Played,
  type RotationState,
} from './service.js';

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Database;
const folders = { media: '/srv/station/media', uploads: '/srv/station/uploads' };
const T0 = Date.UTC(2026, 10, 1, 6, 0, 0);

async function addMedia(fields: Partial<typeof mediaItems.$inferInsert> = {}) {
  const id = randomUUID();
  await db.insert(mediaItems).values({
    id,
    title: `Song ${id.slice(0, 6)}`,
    artist: `Artist ${id.slice(0, 6)}`,
    kind: 'music',
    status: 'ready',
    originalName: `${id}.mp3`,
    path: `media/${id}.mp3`,
    format: 'mp3',
    sizeBytes: 1000,
    durationSeconds: 200,
    cueInSeconds: 0.5,
    cueOutSeconds: 199.5,
    loudnessLufs: -16,
    truePeakDbtp: -1.2,
    ...fields,
  });
  return id;
}

async function playlist(name: string, mediaIds: string[], settings: Record<string, unknown> = {}) {
  const saved = await createPlaylist(db, { name, ...settings });
  if (saved.outcome !== 'saved') throw new Error(saved.outcome);
  await setPlaylistItems(db, saved.playlist.id, mediaIds);
  return saved.playlist.id;
}

/** Plays `count` picks one after another, as the engine would, from one snapshot. */
async function air(playlistId: string | null, count: number, start: RotationState | undefined = undefined) {
  const snapshot = await openPlaylists({ db, folders }).snapshot();
  const history: Played[] = [];
  let state = start;
  let at = T0;
  const aired = [];
  for (let i = 0; i < count; i++) {
    const next = snapshot.next(playlistId, at, history, state);
    if (!next) return aired;
    aired.push(next);
    history.push({ mediaId: next.item.id, title: next.item.title ?? '', artist: next.item.artist ?? '', at });
    state = next.state;
    at += (next.item.duration ?? 0) * 1000;
  }
  return aired;
}

beforeAll(async () => {
  handle = await createTestDatabase();
  db = handle.db;
});
afterAll(() => handle.close());

describe('openPlaylists', () => {
  it('plays the whole ready library when no playlist is in rotation, never an unanalysed item', async () => {
    const ready = [await addMedia(), await addMedia({ kind: 'sermon' }), await addMedia()];
    await addMedia({ status: 'analysing', durationSeconds: null });
    await addMedia({ status: 'failed' });
    const id = await addMedia({ kind: 'station_id', title: 'This is Grace Radio', durationSeconds: 8 });
    const aired = await air(null, 9);
    expect(aired).toHaveLength(9);
    expect(new Set(aired.map((next) => next.item.id))).toEqual(new Set(ready));
    expect(aired.every((next) => next.playlistId === null)).toBe(true);
    expect(aired.map((next) => next.item.id)).not.toContain(id);
  });

  it('answers what the engine needs to play an item', async () => {
    const id = await addMedia({
      title: 'Amazing Grace',
      artist: 'Grace Choir',
      artworkUrl: '/uploads/ab.png',
    });
    const list = await playlist(`Only one ${id}`, [id], { no_repeat_title_minutes: 0 });
    const [next] = await air(list, 1);
    expect(next).toMatchObject({
      item: {
        id,
        path: path.join(folders.media, `${id}.mp3`),
        title: 'Amazing Grace',
        artist: 'Grace Choir',
        kind: 'music',
        artworkUrl: '/uploads/ab.png',
        loudnessLufs: -16,
        truePeakDbtp: -1.2,
        cueIn: 0.5,
        cueOut: 199.5,
        duration: 200,
      },
      playlistId: list,
      insert: false,
      relaxed: [],
    });
  });

  it('shares the default rotation by weight, inserting each playlist’s station identification', async () => {
    const worship = await Promise.all(Array.from({ length: 40 }, () => addMedia()));
    const teaching = await Promise.all(Array.from({ length: 40 }, () => addMedia({ kind: 'sermon' })));
    const a = await playlist('Worship', worship, {
      in_rotation: true,
      weight: 3,
      insert_kind: 'station_id',
      insert_every_songs: 4,
    });
    const b = await playlist('Teaching', teaching, { in_rotation: true, weight: 1 });
    await playlist('Not in rotation', [await addMedia()]);
    const aired = await air(null, 200);
    // Weights share the picks (a playlist's inserts are its own picks).
    const from = (id: string) => aired.filter((next) => next.playlistId === id).length;
    expect(from(a) + from(b)).toBe(200);
    expect(Math.abs(from(a) - 150)).toBeLessThanOrEqual(2);
    // Every fifth pick of the worship playlist is its station identification.
    const worshipPicks = aired.filter((next) => next.playlistId === a);
    worshipPicks.forEach((next, i) => expect(next.insert, `pick ${i}`).toBe(i % 5 === 4));
    expect(aired.every((next) => next.relaxed.length === 0)).toBe(true);
  });

  it('is deterministic and side-effect free: the same inputs give the same answers', async () => {
    const first = await air(null, 30);
    const second = await air(null, 30);
    expect(second.map((next) => next.item.id)).toEqual(first.map((next) => next.item.id));
    const playlists = openPlaylists({ db, folders });
    const state = first[10]!.state;
    const copy = structuredClone(state);
    const one = await playlists.next(null, T0, [], state);
    const two = await playlists.next(null, T0, [], state);
    expect(one).toEqual(two);
    expect(state).toEqual(copy);
  });

  it('answers null for a playlist that is unknown or has nothing ready, and tells which exist', async () => {
    const playlists = openPlaylists({ db, folders });
    const empty = await playlist('Nothing ready', [await addMedia({ status: 'analysing' })]);
    expect(await playlists.next(empty, T0, [])).toBeNull();
    expect(await playlists.next(randomUUID(), T0, [])).toBeNull();
    expect(await playlists.exists(empty)).toBe(true);
    expect(await playlists.exists(randomUUID())).toBe(false);
  });

  it('a changed playlist is seen at the next call, with no restart', async () => {
    const playlists = openPlaylists({ db, folders });
    const first = await addMedia({ title: 'First' });
    const second = await addMedia({ title: 'Second' });
    const id = await playlist('Changing', [first], { order: 'in_order' });
    expect((await playlists.next(id, T0, []))!.item.title).toBe('First');
    await setPlaylistItems(db, id, [second]);
    expect((await playlists.next(id, T0, []))!.item.title).toBe('Second');
    await updatePlaylist(db, id, { in_rotation: true, weight: 100 });
    const picks = await air(null, 20);
    expect(picks.filter((next) => next.playlistId === id).length).toBeGreaterThan(10);
  });

  it('keeps an item taken into a playlist between the library’s check and its delete', async () => {
    const id = await addMedia({ title: 'Contested' });
    const holding = playlistHoldingMedia(db);
    let checks = 0;
    const library = {
      db,
      folders,
      log: { warn: () => undefined },
      // The first check runs before the playlist takes the item, as when two staff act at once.
      inUse: [
        async (mediaId: string) => {
          if (checks++ === 0) {
            await playlist('Took It', [mediaId]);
            return undefined;
          }
          return holding(mediaId);
        },
      ],
    } as unknown as Library;
    expect(await removeMedia(library, id)).toEqual({
      outcome: 'in-use',
      message: "This item is in the playlist 'Took It'. Remove it there first, then delete it here.",
    });
    expect(checks).toBe(2);
  });

  it('serves the schedule as its rotation, reading the playlists once for many picks', async () => {
    const songs = await Promise.all(Array.from({ length: 30 }, () => addMedia()));
    const id = await playlist('For the schedule', songs, { order: 'in_order' });
    const playlists = openPlaylists({ db, folders });
    let reads = 0;
    const counted = { ...playlists, snapshot: () => (reads++, playlists.snapshot()) };
    let clock = T0;
    const rotation = playlistRotation(counted, () => clock);
    const items = new Map(songs.map((song) => [song, { id: song, title: `Title of ${song}`, extra: 1 }]));
    let state = structuredClone(rotation.initial);
    const picked: string[] = [];
    for (let i = 0; i < 40; i++) {
      const next = (await rotation.pick(id, T0 + i * 200_000, state, items))!;
      expect(next.item.extra).toBe(1);
      picked.push(next.item.id);
      state = next.state;
    }
    expect(reads).toBe(1);
    expect(picked.slice(0, 30)).toEqual(songs);
    // Titles came back after 30 picks of 200 s: 100 minutes, under the 120 the playlist asks.
    expect(picked.slice(30)).toEqual(songs.slice(0, 10));
    const last = await rotation.pick(id, T0 + 40 * 200_000, state, items);
    expect(last!.relaxed).toBe(
      'A title repeats sooner than its playlist allows: the playlist has too few songs for its rules.',
    );
    clock += 3000;
    await rotation.pick(id, T0, rotation.initial, items);
    expect(reads).toBe(2);
    expect(await rotation.pick(id, T0, rotation.initial, new Map())).toBeNull();
  });
});
