// Issue 45: a year of 24/7 airplay generated into the database as the station stores it (the as-run log, its
// listener figures, listener sessions, a library of 2,000 items), then the reports staff download over it:
// SoundExchange's report of use, CCLI song usage, the as-run CSV and the listener report, for the year and
// for a month, each through the route staff call (app.inject). Also the size the year takes on disk.
//
// Target: every report of the year under 5 s on this machine (the as-run CSV of a whole year, a 26 MB dump of
// every row, is timed and reported but not judged). The size is reported, not judged.
// node --import tsx bench/reports/run.ts [--data-dir DIR (the embedded PostgreSQL; default PGlite in memory)]
//                                        [--sessions-per-day 300] [--runs 3]
// Prints its verdict last; exits 1 when a target is missed.
import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../src/server/app';
import { openDatabase } from '../../src/server/db/client';
import { asRun, listenerSessions, mediaItems } from '../../src/server/db/schema';
import { createLocalBus } from '../../src/server/plugins/event-bus';
import { testConfig } from '../../src/server/test/helpers';
import { addStaff } from '../../src/server/test/staff';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'sessions-per-day': { type: 'string', default: '300' },
    runs: { type: 'string', default: '3' },
  },
});
const TARGET_MS = 5000;
const DAYS = 365;
const SESSIONS_PER_DAY = Number(values['sessions-per-day']);
const RUNS = Number(values.runs);
const commit = execSync('git rev-parse --short HEAD').toString().trim();

// A seeded generator, so every run writes the same year.
let seed = 45;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;

const dataDir = values['data-dir'] ?? 'memory://';
const scratch = values['data-dir'] ? undefined : mkdtempSync(join(tmpdir(), 'bench-reports-'));
const handle = await openDatabase({ dataDir });
const db = handle.db;

// The year ends at the start of today (UTC); it began DAYS days earlier.
const end = Math.floor(Date.now() / 86_400_000) * 86_400_000;
const start = end - DAYS * 86_400_000;

console.log(`bench/reports on ${commit}: generating ${DAYS} days of airplay into ${handle.kind}…`);
const generating = performance.now();
const media = await db
  .insert(mediaItems)
  .values(
    Array.from({ length: 2000 }, (_, n) => ({
      title: `Song ${n}`,
      artist: `Artist ${n % 300}`,
      album: n % 7 === 0 ? '' : `Album ${n % 150}`,
      label: n % 9 === 0 ? '' : `Label ${n % 40}`,
      isrc: n % 5 === 0 ? '' : `USRC1${String(n).padStart(7, '0')}`,
      ccliSongNumber: n % 3 === 0 ? '' : String(1_000_000 + n),
      composer: `Writer ${n % 500}`,
      kind: (n % 20 === 0 ? 'jingle' : n % 13 === 0 ? 'sermon' : 'music') as 'music',
      originalName: `song-${n}.mp3`,
      path: `media/song-${n}.mp3`,
      format: 'mp3',
      sizeBytes: 1,
      status: 'ready' as const,
    })),
  )
  .returning();
const classOf = (kind: string) => (kind === 'music' ? 'music' : kind === 'jingle' ? 'jingle' : 'speech');
let plays = 0;
let batch: (typeof asRun.$inferInsert)[] = [];
for (let at = start; at < end;) {
  const item = pick(media);
  const seconds = item.kind === 'jingle' ? 10 + random() * 20 : 150 + random() * 180;
  const next = Math.min(end, at + seconds * 1000);
  const hour = new Date(at).getUTCHours();
  const programme = hour >= 6 && hour < 9 ? 'morning' : hour >= 18 && hour < 20 ? 'evening' : null;
  const listeners = Math.round(5 + 20 * random() * (programme ? 2 : 1));
  batch.push({
    startedAt: new Date(at),
    endedAt: new Date(next),
    kind: 'library',
    reason: programme ? 'schedule' : 'rotation',
    mediaId: item.id,
    title: item.title,
    artist: item.artist,
    album: item.album,
    label: item.label,
    isrc: item.isrc,
    composer: item.composer,
    ccliSongNumber: item.ccliSongNumber,
    licenceClass: classOf(item.kind) as 'music',
    programmeId: programme,
    programmeTitle: programme && (programme === 'morning' ? 'Morning Praise' : 'Evening Devotion'),
    listenersPeak: listeners + 3,
    listenersAverage: listeners,
    performances: listeners + 5,
  });
  at = next;
  if (batch.length === 2000) {
    await db.insert(asRun).values(batch);
    plays += batch.length;
    batch = [];
  }
}
if (batch.length) await db.insert(asRun).values(batch);
plays += batch.length;
let sessions = 0;
let sessionBatch: (typeof listenerSessions.$inferInsert)[] = [];
for (let day = 0; day < DAYS; day++) {
  for (let n = 0; n < SESSIONS_PER_DAY; n++) {
    const from = start + day * 86_400_000 + random() * 86_400_000;
    const minutes = 0.2 - Math.log(1 - random()) * 30; // exponential, 30 minutes on average
    sessionBatch.push({
      startedAt: new Date(from),
      endedAt: new Date(Math.min(end, from + minutes * 60_000)),
      bitrate: pick([128, 128, 96, 80, 64]),
      player: pick(['browser', 'browser', 'app', 'encoder', 'relay']),
      country: pick(['US', 'GB', 'NG', 'KE', 'BR', 'PH', null]),
      via: 'direct',
    });
    if (sessionBatch.length === 2000) {
      await db.insert(listenerSessions).values(sessionBatch);
      sessions += sessionBatch.length;
      sessionBatch = [];
    }
  }
}
if (sessionBatch.length) await db.insert(listenerSessions).values(sessionBatch);
sessions += sessionBatch.length;
await db.execute(sql`analyze`);
console.log(
  `${plays.toLocaleString('en')} plays and ${sessions.toLocaleString('en')} listener sessions written in ${((performance.now() - generating) / 1000).toFixed(0)} s`,
);

const size = async (table: string) => {
  const result = await db.execute(sql`select pg_total_relation_size(${table}::regclass) as bytes`);
  const rows = (Array.isArray(result) ? result : (result as { rows: { bytes: string }[] }).rows) as {
    bytes: string;
  }[];
  return Number(rows[0]!.bytes);
};
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const asRunBytes = await size('as_run');
const sessionBytes = await size('listener_sessions');
console.log(
  `on disk (tables with their indexes): as_run ${mb(asRunBytes)}, listener_sessions ${mb(sessionBytes)}`,
);

const app = await buildApp({ config: testConfig({ STATION_TIMEZONE: 'UTC' }), db, bus: createLocalBus() });
await app.ready();
const admin = (await addStaff(db, 'bench-admin', 'admin')).headers;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const year = `from=${day(start)}&to=${day(end - 1)}`;
const month = `from=${day(end - 30 * 86_400_000)}&to=${day(end - 1)}`;
const reports = [
  ['SoundExchange, the year', `/api/admin/reports/licence?${year}&format=soundexchange`],
  ['CCLI, the year', `/api/admin/reports/licence?${year}&format=ccli`],
  ['missing fields, the year', `/api/admin/reports/licence/check?${year}&format=soundexchange`],
  ['as-run CSV, a month', `/api/admin/reports/licence?${month}&format=csv`],
  [
    'as-run CSV dump of the whole year (reported, not judged)',
    `/api/admin/reports/licence?${year}&format=csv`,
  ],
  ['listener report, the year', `/api/admin/reports/listeners?${year}`],
  ['listener report, a programme, the year', `/api/admin/reports/listeners?${year}&programme=morning`],
  ['SoundExchange, a month', `/api/admin/reports/licence?${month}&format=soundexchange`],
  ['listener report, a month', `/api/admin/reports/listeners?${month}`],
] as const;
const verdicts: string[] = [];
for (const [name, url] of reports) {
  const times: number[] = [];
  let bytes = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const res = await app.inject({ method: 'GET', url, headers: admin });
    times.push(performance.now() - started);
    if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    bytes = res.rawPayload.length;
  }
  const slowest = Math.max(...times);
  console.log(`${name}: ${times.map((t) => `${t.toFixed(0)} ms`).join(', ')} (${mb(bytes)})`);
  if (name.includes('the year') && !name.includes('not judged'))
    verdicts.push(
      `${slowest < TARGET_MS ? 'met    ' : 'NOT met'} ${name}: slowest ${slowest.toFixed(0)} ms (target < ${TARGET_MS} ms)`,
    );
}
await app.close();
await handle.close();
if (scratch) rmSync(scratch, { recursive: true, force: true });

console.log(
  `\nVerdict (${commit}, ${handle.kind}, ${plays.toLocaleString('en')} plays, ${sessions.toLocaleString('en')} sessions; a year of as-run log takes ${mb(asRunBytes)}, its sessions ${mb(sessionBytes)}):`,
);
for (const line of verdicts) console.log(line);
process.exitCode = verdicts.some((line) => line.startsWith('NOT')) ? 1 : 0;
