// Issue 45, the end-to-end check: a station plays tagged MP3s (ISRC in the ID3 tags) for a couple of minutes
// while listeners this test counts itself join and leave; the as-run log, the SoundExchange file the
// administrator downloads from the Reports tab and the listener report must agree with what aired and who
// listened.
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ListenerReport } from '../src/common/reports';
import { openPage, visit } from './browser';
import { E2E_ADMIN, ownBrowserAndStation } from './station';

const SONGS = [
  { file: 'one.mp3', title: 'Morning Has Broken', isrc: 'GBAYE7100001', frequency: 330 },
  { file: 'two.mp3', title: 'Be Thou My Vision', isrc: 'GBAYE7100002', frequency: 440 },
  { file: 'three.mp3', title: 'Great Is Thy Faithfulness', isrc: 'GBAYE7100003', frequency: 550 },
];
const SONG_SECONDS = 20;
const dataDir = mkdtempSync(path.join(tmpdir(), 'reports-e2e-'));
mkdirSync(path.join(dataDir, 'media'));
for (const song of SONGS)
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', `sine=frequency=${song.frequency}:duration=${SONG_SECONDS}`],
    ...['-metadata', `title=${song.title}`, '-metadata', 'artist=Abbey Choir', '-metadata', 'album=Hymns'],
    ...['-metadata', 'publisher=Abbey Records', '-metadata', `TSRC=${song.isrc}`, '-id3v2_version', '3'],
    ...['-c:a', 'libmp3lame', '-b:a', '128k', path.join(dataDir, 'media', song.file)],
  ]);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A listener on a mount, as the test counts it: from its answer's headers to when it hangs up. */
function listener(url: string, userAgent: string) {
  const times = { joined: 0, left: 0 };
  const req = http.get(url, { headers: { 'User-Agent': userAgent } }, (res) => {
    times.joined = Date.now();
    res.resume();
  });
  req.on('error', () => undefined);
  return {
    times,
    leave() {
      times.left = Date.now();
      req.destroy();
    },
  };
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('the as-run log, the SoundExchange file and the listener report agree', () => {
  const own = ownBrowserAndStation({ DATA_DIR: dataDir, STATION_TIMEZONE: 'UTC' });

  it('with what aired and who listened', { timeout: 420_000 }, async () => {
    const { url } = own.station;
    const began = Date.now();
    // The media folder is imported and measured at start; the AutoDJ then plays it.
    const titles = SONGS.map((s) => s.title);
    for (let waited = 0; ; waited += 1000) {
      const np = (await (await fetch(`${url}/api/radio/current`)).json()) as {
        current_track: { title: string };
      };
      if (titles.includes(np.current_track.title)) break;
      if (waited > 120_000) throw new Error(`the library never aired: ${np.current_track.title}`);
      await sleep(1000);
    }

    // Listeners: one in a browser for 80 s, one in VLC on the 64 kbps mount joining 25 s later for 50 s, and a
    // 1-second connection (a preload) that is no listener by the station's rule.
    const a = listener(`${url}/stream`, 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0');
    await sleep(5000);
    const preload = listener(`${url}/stream`, 'Mozilla/5.0 (Macintosh) Safari/605.1.15');
    await sleep(1000);
    preload.leave();
    await sleep(19_000);
    const b = listener(`${url}/stream/64`, 'VLC/3.0.20 LibVLC/3.0.20');
    await sleep(50_000);
    b.leave();
    await sleep(5000);
    a.leave();
    await sleep(3000);
    const stoppedAt = Date.now();
    // A stop writes the item on the air and every row's listener figures; the station then starts again.
    await own.station.restart();
    const counted = [a.times, b.times];

    // The administrator downloads the SoundExchange file from the Reports tab, as a new user would.
    const { page, problems } = await openPage(own.browser, { acceptDownloads: true });
    await visit(page, `${url}/dashboard-mgmt`);
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('tab', { name: 'Reports' }).click();
    await page.getByLabel('From', { exact: true }).fill(day(-1));
    await page.getByLabel('To', { exact: true }).fill(day(1));
    await page.getByRole('button', { name: 'Show reports' }).click();
    await page.getByTestId('licence-plays').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    const soundExchange = readFileSync((await download.path())!, 'utf8');
    await page.getByTestId('report-peak').waitFor({ timeout: 20_000 });
    expect(problems).toEqual([]);

    const token = (
      (await (
        await fetch(`${url}/api/admin/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(E2E_ADMIN),
        })
      ).json()) as { token: string }
    ).token;
    const get = (path: string) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const period = `from=${day(-1)}&to=${day(1)}`;
    const csv = await (await get(`/api/admin/reports/licence?${period}&format=csv`)).text();
    const report = (await (await get(`/api/admin/reports/listeners?${period}`)).json()) as ListenerReport;

    // The as-run log: every song that aired, with the ISRC from its tags, back to back.
    const [header, ...lines] = csv
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    const col = (name: string) => header!.indexOf(name);
    const rows = lines.map((f) => ({
      start: Date.parse(f[col('Start (UTC)')]!),
      end: Date.parse(f[col('End (UTC)')]!),
      title: f[col('Title')]!,
      isrc: f[col('ISRC')]!,
      kind: f[col('Kind')]!,
      peak: Number(f[col('Listeners (peak)')]),
      performances: Number(f[col('Performances')]),
    }));
    const songs = rows.filter((r) => titles.includes(r.title) && r.end > began);
    expect(songs.length).toBeGreaterThanOrEqual(4);
    for (const row of songs) expect(row.isrc).toBe(SONGS.find((s) => s.title === row.title)!.isrc);
    // While the station ran (until the test stopped it), one row ends where the next begins.
    const whileOn = rows.filter((r) => r.end > began && r.start < stoppedAt);
    for (let i = 1; i < whileOn.length; i++) expect(whileOn[i]!.start).toBe(whileOn[i - 1]!.end);

    // Each song's listeners, counted by the test: those connected at any moment of it (away from the instants
    // a listener joined or left, where the station's clock and the test's differ by a little).
    const moments = counted.flatMap((t) => [t.joined, t.left]);
    const clear = songs.filter((r) =>
      moments.every((m) => Math.abs(m - r.start) > 1500 && Math.abs(m - r.end) > 1500),
    );
    expect(clear.length).toBeGreaterThanOrEqual(2);
    for (const row of clear) {
      const heard = counted.filter((t) => t.joined < row.end && t.left > row.start).length;
      expect(row.performances, `${row.title} at ${new Date(row.start).toISOString()}`).toBe(heard);
      expect(row.peak).toBe(heard);
    }
    expect(clear.some((r) => r.performances === 2)).toBe(true);

    // The SoundExchange file: each recording's actual total performances are its rows' in the as-run log.
    const [columns, ...recordings] = soundExchange
      .trim()
      .split('\r\n')
      .map((line) => line.split('\t'));
    expect(columns).toEqual([
      'NAME_OF_SERVICE',
      'TRANSMISSION_CATEGORY',
      'FEATURED_ARTIST',
      'SOUND_RECORDING_TITLE',
      'ISRC',
      'ALBUM_TITLE',
      'MARKETING_LABEL',
      'ACTUAL_TOTAL_PERFORMANCES',
    ]);
    for (const song of SONGS) {
      const line = recordings.find((r) => r[4] === song.isrc);
      const aired = rows.filter((r) => r.isrc === song.isrc);
      if (!aired.length) continue;
      expect(line!.slice(2, 7)).toEqual(['Abbey Choir', song.title, song.isrc, 'Hymns', 'Abbey Records']);
      expect(Number(line![7])).toBe(aired.reduce((sum, r) => sum + r.performances, 0));
    }

    // The listener report: two listeners (not the preload), at most two at once, the hours they listened.
    expect(report.sessions).toBe(2);
    expect(report.peak).toBe(2);
    const hours = counted.reduce((sum, t) => sum + (t.left - t.joined), 0) / 3_600_000;
    expect(Math.abs(report.listeningHours - hours)).toBeLessThan(0.01);
    expect(report.bitrates.map((b) => b.kbps).sort()).toEqual([128, 64].sort());
    expect(report.players.map((p) => p.player).sort()).toEqual(['browser', 'encoder']);
  });
});
