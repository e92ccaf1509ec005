// Captions from speech (issue 46): accuracy, latency to a listener's screen, and cost, on the built server.
// Usage: npm run build, then node --import tsx bench/captions/run.ts [--seconds N]  (see README.md)
//  1. Accuracy: word error rate of the offline engine (PocketSphinx) on a fixed set of clips spoken by
//     espeak-ng in two voices, fed as the station's mix is; and of a Whisper-class server when
//     SPEECH_SERVER_URL names one.
//  2. Latency: the built station airs a live encoder (ffmpeg) speaking phrases of known timing; a Chromium
//     listener plays /stream with English subtitles; for each phrase, from the moment the listener hears
//     its first word to the moment a line for it is on their screen. Target p95 <= 3 s.
//  3. Cost: the recogniser's CPU (of one core) and memory while the station airs four bitrates to 100
//     listeners. Target: within one core.
// The verdict is the last line; exit 1 when a target is missed.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../../e2e/browser';
import { E2E_ADMIN, startStation } from '../../e2e/station';
import { STREAM_BITRATES } from '../../src/common/radio';
import { TranscriptionServerRecogniser } from '../../src/server/features/speech/openai-transcriptions';
import { PocketSphinxRecogniser } from '../../src/server/features/speech/pocketsphinx';
import type { Recogniser, TimedWord } from '../../src/server/features/speech/recogniser';
import { SpeechResampler } from '../../src/server/features/speech/resample';
import { joined, secondsOf, silence, speak } from '../../src/server/features/speech/spoken';
import { wordErrorRate } from '../../src/server/features/speech/word-error-rate';

const { values: args } = parseArgs({ options: { seconds: { type: 'string', default: '120' } } });
const LISTEN_SECONDS = Math.min(400, Math.max(30, Number(args.seconds) || 120));
const LATENCY_TARGET = 3;
const CPU_TARGET = 1;
const LISTENERS = 100;
const PHRASE_GAP = 1.5;

/** The fixed clips: what a ministry's station says, read by espeak-ng (no recorded speech is available offline). */
const CLIPS = [
  'Good morning and welcome to the station.',
  'Today we read from the book of Psalms.',
  'The Lord is my shepherd, I shall not want.',
  'He leads me beside still waters and restores my soul.',
  'Let us pray together for our families and our city.',
  'Thank you for listening, and may God bless you this week.',
  'Our next programme begins at ten o clock on Sunday morning.',
  'Please join us again tomorrow for the evening service.',
];
const VOICES = ['en-us+f2', 'en-us'];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

async function recognise(recogniser: Recogniser, pcm: Float32Array): Promise<string> {
  const words: TimedWord[] = [];
  recogniser.onWords((w) => words.push(...w.words));
  while (recogniser.status().state === 'starting') await new Promise((r) => setTimeout(r, 50));
  const resampler = new SpeechResampler();
  const chunk = 1152 * 8 * 2;
  for (let at = 0; at < pcm.length; at += chunk) {
    const speech = resampler.push(pcm.subarray(at, at + chunk), at / 2 / 44_100);
    if (speech) recogniser.feed(speech.clock, speech.samples);
  }
  recogniser.flush();
  const end = secondsOf(pcm);
  // Answered for all of it (and, for a server, nothing waiting).
  for (;;) {
    const s = recogniser.status();
    if (s.state === 'paused') throw new Error(`recogniser paused: ${s.reason}`);
    if (s.behindSeconds === 0 && (words.length > 0 || end < 1)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 300));
  return words.map((w) => w.text).join(' ');
}

async function accuracy(name: string, make: () => Recogniser) {
  const rates: number[] = [];
  for (const voice of VOICES) {
    const voiceRates: number[] = [];
    for (const clip of CLIPS) {
      const recogniser = make();
      try {
        const pcm = joined([silence(0.5), await speak(clip, voice), silence(1)]);
        const heard = await recognise(recogniser, pcm);
        const rate = wordErrorRate(clip, heard);
        voiceRates.push(rate);
        if (process.env.DEBUG)
          console.log(`  ${voice}: "${clip}" -> "${heard}" (${(rate * 100).toFixed(0)}%)`);
      } finally {
        await recogniser.close();
      }
    }
    const mean = voiceRates.reduce((a, b) => a + b, 0) / voiceRates.length;
    console.log(
      `accuracy ${name}, espeak-ng voice ${voice}: WER ${(mean * 100).toFixed(1)}% over ${CLIPS.length} clips`,
    );
    rates.push(...voiceRates);
  }
  const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
  console.log(
    `accuracy ${name}: WER ${(mean * 100).toFixed(1)}% over ${rates.length} clips (synthetic speech)`,
  );
  return mean;
}

/** CPU seconds (user + system) and resident memory of a process, from /proc. */
function usage(pid: number): { cpu: number; rssMb: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpu = (Number(fields[11]) + Number(fields[12])) / 100;
    const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { cpu, rssMb: rss ? Number(rss[1]) / 1024 : 0 };
  } catch {
    return null;
  }
}

/** The recogniser child of the station this bench started (its parent's parent is this process). */
function recogniserPid(): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmd.includes('pocketsphinx-worker.py')) continue;
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      const grand = Number(readFileSync(`/proc/${ppid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      if (grand === process.pid) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

/** Listeners that only read: 100 connections over the four mounts, as players would hold them. */
function listeners(port: number, count: number) {
  const requests: http.ClientRequest[] = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const kbps = STREAM_BITRATES[i % STREAM_BITRATES.length];
    const req = http.get({ host: '127.0.0.1', port, path: `/stream/${kbps}`, agent: false }, (res) => {
      res.on('data', (c: Buffer) => (bytes += c.length));
    });
    req.on('error', () => {});
    requests.push(req);
  }
  return { stop: () => requests.forEach((r) => r.destroy()), bytes: () => bytes };
}

interface Change {
  at: number;
  timestamp: number;
  text: string;
  ahead: number;
}

async function listen(page: Page, url: string) {
  await page.goto(url);
  await page.getByRole('button', { name: 'Turn On' }).click();
  await page.getByRole('button', { name: 'Turn Off' }).waitFor({ timeout: 30_000 });
  await page.evaluate(() => {
    const w = window as unknown as { __changes: Change[] };
    w.__changes = [];
    let last: string | undefined;
    const audio = document.querySelector<HTMLAudioElement>('audio[data-station-player]')!;
    setInterval(() => {
      const line = document.querySelector<HTMLElement>('[data-testid="subtitle-line"]');
      const key = line ? `${line.dataset.timestamp}|${line.textContent}` : undefined;
      if (!line || !key || key === last) return;
      last = key;
      w.__changes.push({
        at: performance.now(),
        timestamp: Number(line.dataset.timestamp),
        text: line.textContent ?? '',
        ahead: audio.buffered.length ? audio.buffered.end(audio.buffered.length - 1) - audio.currentTime : 0,
      });
    }, 20);
  });
}

async function stationNow(page: Page) {
  return page.evaluate(async () => {
    const before = performance.now();
    const np = (await (await fetch('/api/radio/current', { cache: 'no-store' })).json()) as {
      stream_clock: number;
      is_live: boolean;
      current_track: { started_at: number };
    };
    const after = performance.now();
    return {
      at: (before + after) / 2,
      clock: np.stream_clock,
      live: np.is_live,
      liveFrom: np.current_track.started_at,
    };
  });
}

const verdicts: string[] = [];
let failed = false;

// --- 1. accuracy -----------------------------------------------------------------------------------------
const wer = await accuracy(
  'pocketsphinx (Debian en-us model)',
  () => new PocketSphinxRecogniser({ maxBacklogSeconds: 60 }),
);
verdicts.push(`WER ${(wer * 100).toFixed(1)}% (pocketsphinx, synthetic speech; no target)`);
if (process.env.SPEECH_SERVER_URL) {
  const server = process.env.SPEECH_SERVER_URL;
  const serverWer = await accuracy(
    `transcription server at ${server}`,
    () =>
      new TranscriptionServerRecogniser({
        url: server,
        apiKey: process.env.SPEECH_SERVER_KEY,
        model: process.env.SPEECH_SERVER_MODEL ?? 'whisper-1',
        language: 'en',
      }),
  );
  verdicts.push(`WER ${(serverWer * 100).toFixed(1)}% (transcription server)`);
} else {
  console.log(
    'accuracy of a Whisper-class engine: not measured (no SPEECH_SERVER_URL: none runs on this machine)',
  );
}

// --- 2 and 3. the station live ----------------------------------------------------------------------------
const phrases = await Promise.all(CLIPS.map((c) => speak(c)));
const lead = 1;
const onsets: number[] = [];
let at = lead;
for (const p of phrases) {
  onsets.push(at);
  at += secondsOf(p) + PHRASE_GAP;
}
const loopSeconds = at;
// One MP3 of all the phrases with their gaps; ffmpeg loops it at real speed as a presenter's encoder.
const mp3File = join(tmpdir(), `captions-bench-${process.pid}.mp3`);
process.on('exit', () => rmSync(mp3File, { force: true }));
{
  // The phrases as one WAV (exact gaps), encoded to MP3 by ffmpeg.
  const pcm = joined([silence(lead), ...phrases.flatMap((p) => [p, silence(PHRASE_GAP)])]);
  const wav = join(tmpdir(), `captions-bench-${process.pid}.f32`);
  writeFileSync(wav, Buffer.from(pcm.buffer));
  process.on('exit', () => rmSync(wav, { force: true }));
  await new Promise<void>((resolve, reject) => {
    const ff = spawn('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'f32le', '-ar', '44100', '-ac', '2', '-i', wav],
      ...['-b:a', '128k', '-y', mp3File],
    ]);
    ff.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg ${code}`))));
  });
}

const PASSWORD = 'captions-bench-source';
const station = await startStation({
  SEED_DEMO: 'false',
  SOURCE_PASSWORD: PASSWORD,
  SPEECH_ENGINE: 'pocketsphinx',
});
const browser = await launchBrowser();
let source: ChildProcess | null = null;
let crowd: ReturnType<typeof listeners> | null = null;
try {
  const login = (await (
    await fetch(`${station.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(E2E_ADMIN),
    })
  ).json()) as { token: string };
  const staff = { authorization: `Bearer ${login.token}`, 'content-type': 'application/json' };
  const saved = await fetch(`${station.url}/api/speech/settings`, {
    method: 'PUT',
    headers: staff,
    body: JSON.stringify({ enabled: true, programmeIds: [], wordList: ['Psalms'] }),
  });
  if (!saved.ok) throw new Error(`settings not saved: ${saved.status} ${await saved.text()}`);
  crowd = listeners(station.port, LISTENERS);

  const context = await browser.newContext();
  await context.addInitScript(() => {
    localStorage.setItem('subtitles-enabled', 'true');
    localStorage.setItem('subtitles-language', 'en');
  });
  const page = await context.newPage();
  page.on('crash', () => console.error('listener page crashed'));
  source = spawn(
    'ffmpeg',
    [
      ...['-nostdin', '-hide_banner', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', mp3File],
      ...['-c:a', 'libmp3lame', '-b:a', '128k', '-ar', '44100', '-ac', '2', '-f', 'mp3'],
      ...['-content_type', 'audio/mpeg', `icecast://source:${PASSWORD}@127.0.0.1:${station.port}/stream`],
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  await listen(page, station.url);
  let now = await stationNow(page);
  while (!now.live) {
    await page.waitForTimeout(200);
    now = await stationNow(page);
  }
  const liveFrom = now.liveFrom;
  const worker = recogniserPid();
  const stationBefore = worker ? usage(worker) : null;
  const startedAt = performance.now();
  let peakRss = 0;
  let lastStatus = '';
  while (performance.now() - startedAt < LISTEN_SECONDS * 1000) {
    await page.waitForTimeout(2000);
    if (worker) peakRss = Math.max(peakRss, usage(worker)?.rssMb ?? 0);
    const s = (await (await fetch(`${station.url}/api/speech/status`, { headers: staff })).json()) as {
      state: string;
      behindSeconds: number | null;
    };
    lastStatus = `${s.state}, ${s.behindSeconds ?? '-'} s behind`;
  }
  const elapsed = (performance.now() - startedAt) / 1000;
  const workerAfter = worker ? usage(worker) : null;
  const end = await stationNow(page);
  const changes = await page.evaluate(() => (window as unknown as { __changes: Change[] }).__changes);
  // Each change: the second the listener was hearing when it appeared.
  const seen = changes.map((c) => ({ ...c, heard: end.clock - (end.at - c.at) / 1000 - c.ahead }));
  const firstHeard = seen[0]?.heard ?? end.clock;
  const lastHeard = end.clock - (seen.at(-1)?.ahead ?? 2);
  const latencies: number[] = [];
  let missed = 0;
  // Every phrase onset the listener heard while recording, and the first line shown for it: one stamped
  // from just before the phrase's first word (the previous phrase's lines end 1.5 s earlier).
  for (let loop = 0; liveFrom + loop * loopSeconds < lastHeard; loop++) {
    onsets.forEach((onset, i) => {
      const spoken = liveFrom + loop * loopSeconds + onset;
      if (spoken < firstHeard + 2 || spoken > lastHeard - 8) return;
      const ends = spoken + secondsOf(phrases[i]!);
      const line = seen.find(
        (c) => c.timestamp >= Math.floor(spoken - 0.3) && c.timestamp <= ends && c.heard >= spoken - 1,
      );
      if (!line) {
        missed++;
        return;
      }
      latencies.push(Math.max(0, line.heard - spoken));
      if (process.env.DEBUG)
        console.log(
          `phrase ${i} at ${spoken.toFixed(1)}: "${line.text}" +${(line.heard - spoken).toFixed(2)} s`,
        );
    });
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const p50 = sorted.length ? percentile(sorted, 50) : NaN;
  const p95 = sorted.length ? percentile(sorted, 95) : NaN;
  console.log(
    `latency to a Chromium listener's screen: ${latencies.length} phrases, p50 ${p50.toFixed(2)} s, p95 ${p95.toFixed(2)} s, ${missed} with no line (target p95 <= ${LATENCY_TARGET} s)`,
  );
  const cpu = stationBefore && workerAfter ? (workerAfter.cpu - stationBefore.cpu) / elapsed : NaN;
  console.log(
    `recogniser while the station airs ${STREAM_BITRATES.length} bitrates to ${LISTENERS} listeners (${(crowd.bytes() / 1e6).toFixed(0)} MB sent): CPU ${(cpu * 100).toFixed(0)}% of one core, memory ${peakRss.toFixed(0)} MB resident; status at the end: ${lastStatus}`,
  );
  const latencyMet = latencies.length > 0 && p95 <= LATENCY_TARGET && missed <= latencies.length * 0.1;
  const cpuMet = Number.isFinite(cpu) && cpu <= CPU_TARGET;
  failed ||= !latencyMet || !cpuMet;
  verdicts.unshift(
    `latency p95 ${p95.toFixed(2)} s ${latencyMet ? 'met' : 'NOT met'} (<= ${LATENCY_TARGET} s, ${missed} missed)`,
    `CPU ${(cpu * 100).toFixed(0)}% of a core ${cpuMet ? 'met' : 'NOT met'} (<= 100%), ${peakRss.toFixed(0)} MB`,
  );
} catch (error) {
  console.error(error);
  failed = true;
  verdicts.unshift('the live run failed');
} finally {
  source?.kill();
  crowd?.stop();
  await browser.close();
  await station.stop();
}
console.log(`verdict: ${failed ? 'NOT MET' : 'MET'}: ${verdicts.join('; ')}`);
if (failed) process.exitCode = 1;
