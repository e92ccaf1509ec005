// A large station's data, written into a real database as the station stores it: 10,000 ready library
// items (each a real file in DATA_DIR/media, hard links to one short MP3 so the disk holds one), 300
// playlists of 40 items (20 in the default rotation, some inserting jingles), 98 weekly programmes (14 a
// day, airing recordings, the newest sermon, playlists and the rotation) and 1,000 one-off specials over
// the coming year.
import { existsSync, linkSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { addDays, DAYS_OF_WEEK, type Airs } from '../../src/common/programs';
import type { Database } from '../../src/server/db/client';
import { mediaItems, playlistItems, playlists, programOverrides, programs } from '../../src/server/db/schema';
import { stationClock } from '../../src/server/features/programs/service';
import { makeTone } from '../../src/server/radio/test-audio';

export const SIZES = { items: 10_000, playlists: 300, perPlaylist: 40, weekly: 98, oneOffs: 1000 };

const kindOf = (n: number) =>
  n % 50 === 0 ? 'sermon' : n % 97 === 0 ? 'jingle' : n % 89 === 0 ? 'station_id' : 'music';

/** Fills `db` (freshly migrated) and `dataDir/media`; returns nothing, the database is the result. */
export async function fillStation(db: Database, dataDir: string, timeZone = 'UTC'): Promise<void> {
  const media = join(dataDir, 'media');
  mkdirSync(media, { recursive: true });
  const tone = join(dataDir, 'bench-tone.mp3');
  if (!existsSync(tone)) await makeTone(tone, { seconds: 20, frequency: 440 });
  const ids: string[] = [];
  const created = Date.now() - SIZES.items * 60_000;
  for (let start = 0; start < SIZES.items; start += 1000) {
    const rows = Array.from({ length: 1000 }, (_, i) => {
      const n = start + i;
      const path = `media/bench-${n}.mp3`;
      if (!existsSync(join(dataDir, path))) linkSync(tone, join(dataDir, path));
      return {
        path,
        originalName: `bench-${n}.mp3`,
        format: 'mp3',
        title: `Song ${n}`,
        artist: `Artist ${n % 400}`,
        kind: kindOf(n) as 'music',
        status: 'ready' as const,
        durationSeconds: 150 + (n % 180),
        loudnessLufs: -16,
        truePeakDbtp: -1,
        sampleRate: 44100,
        channels: 2,
        sizeBytes: 1,
        createdAt: new Date(created + n * 60_000),
      };
    });
    const inserted = await db.insert(mediaItems).values(rows).returning({ id: mediaItems.id });
    ids.push(...inserted.map((row) => row.id));
  }
  const sermons = ids.filter((_, n) => kindOf(n) === 'sermon');

  const lists = await db
    .insert(playlists)
    .values(
      Array.from({ length: SIZES.playlists }, (_, p) => ({
        name: `Playlist ${p}`,
        order: p % 4 === 0 ? ('in_order' as const) : ('shuffle' as const),
        inRotation: p < 20,
        weight: 1 + (p % 5),
        insertKind: p % 3 === 0 ? (p % 2 ? ('jingle' as const) : ('station_id' as const)) : null,
        insertEverySongs: p % 3 === 0 ? 4 : null,
        insertEveryMinutes: p % 6 === 0 ? 20 : null,
      })),
    )
    .returning({ id: playlists.id });
  const playlistIds = lists.map((row) => row.id);
  for (let p = 0; p < SIZES.playlists; p += 25) {
    const rows = playlistIds.slice(p, p + 25).flatMap((playlistId, k) =>
      Array.from({ length: SIZES.perPlaylist }, (_, position) => ({
        playlistId,
        mediaItemId: ids[((p + k) * 97 + position * 31) % ids.length]!,
        position,
      })),
    );
    await db.insert(playlistItems).values(rows).onConflictDoNothing();
  }

  const timing = { start: 'on_time' as const, fillPlaylistId: null };
  const airsOf = (i: number): Airs => {
    const fill = { ...timing, fillPlaylistId: i % 2 ? playlistIds[(i * 7) % playlistIds.length]! : null };
    switch (i % 4) {
      case 0:
        return { kind: 'recording', mediaId: sermons[i % sermons.length]!, overrun: 'fade', ...fill };
      case 1:
        return { kind: 'newest', mediaKind: 'sermon', overrun: 'finish', ...fill };
      case 2:
        return { kind: 'playlist', playlistId: playlistIds[(i * 13) % playlistIds.length]!, ...timing };
      default:
        return { kind: 'rotation', ...timing };
    }
  };
  await db.insert(programs).values(
    DAYS_OF_WEEK.flatMap((day, d) =>
      Array.from({ length: SIZES.weekly / 7 }, (_, i) => ({
        title: `Weekly ${d}-${i}`,
        startTime: `${String(6 + i).padStart(2, '0')}:00`,
        duration: 45,
        dayOfWeek: day,
        airs: airsOf(d * 14 + i),
      })),
    ),
  );
  const today = stationClock(new Date(), timeZone).date;
  await db.insert(programOverrides).values(
    Array.from({ length: SIZES.oneOffs }, (_, i) => ({
      date: addDays(today, i % 365),
      kind: 'add' as const,
      title: `Special ${i}`,
      startTime: `${String(20 + (i % 3)).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}`,
      duration: 30,
      airs: airsOf(i),
    })),
  );
}
