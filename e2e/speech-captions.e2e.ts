import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { joined, secondsOf, silence, speak } from '../src/server/features/speech/spoken';
import { CAPTIONS_PAUSED_TEXT } from '../src/common/speech';
import { SUBTITLE_WINDOW_SECONDS } from '../src/common/subtitles';
import { ffmpegPath } from '../src/server/radio/ffmpeg';
import { startLibreTranslate } from '../src/server/test/libretranslate-server';
import { launchBrowser, openPage, visit } from './browser';
import { E2E_ADMIN, startStation, type RunningStation } from './station';
import { clockIn, middayZone } from './midday';

/**
 * Issue 46's 'done when', tried as a new station would: staff turn captions from speech on in the Captions
 * tab for a presenter's live programme, the presenter's encoder (ffmpeg) speaks known sentences through the
 * station, and two listeners in Chromium, one reading English and one Spanish (filled in by a
 * LibreTranslate-compatible service, TRANSLATE_URL), see lines of those sentences marked Auto-generated
 * as they hear them. The Spanish listener's screen is saved beside the guide's screenshots.
 */
const IMAGES = process.env.STAFF_GUIDE_IMAGES ?? path.resolve('docs/images');
const work = mkdtempSync(path.join(tmpdir(), 'speech-captions-e2e-'));

const zone = middayZone();

const PRESENTER = { username: 'pastor-ruth', password: 'ruth long password' };
const LIVE = 'Midday Word';
const SENTENCES = [
  'Good morning and welcome to the station.',
  'The Lord is my shepherd, I shall not want.',
  'Let us pray together for our families and our city.',
  'Thank you for listening, and may God bless you this week.',
];
/** Silence before the first sentence and between sentences, in seconds. */
const LEAD = 1;
const GAP = 1.5;
/** The translator's word table: every word spoken, English to Spanish. */
const SPANISH: Record<string, string> = {
  good: 'buenos',
  morning: 'días',
  and: 'y',
  welcome: 'bienvenidos',
  to: 'a',
  the: 'la',
  station: 'estación',
  lord: 'señor',
  is: 'es',
  my: 'mi',
  shepherd: 'pastor',
  i: 'yo',
  shall: 'nada',
  not: 'me',
  want: 'faltará',
  let: 'vamos',
  us: 'nosotros',
  pray: 'orar',
  together: 'juntos',
  for: 'por',
  our: 'nuestras',
  families: 'familias',
  city: 'ciudad',
  thank: 'gracias',
  you: 'usted',
  listening: 'escuchar',
  may: 'que',
  god: 'dios',
  bless: 'bendiga',
  this: 'esta',
  week: 'semana',
};
const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}']+/gu) ?? [];
/** Words that tell a sentence apart (not 'the', 'and'), in each language. */
const ENGLISH_WORDS = new Set(SENTENCES.flatMap(wordsOf).filter((w) => w.length > 3));
const SPANISH_WORDS = new Set(
  [...ENGLISH_WORDS].map((w) => SPANISH[w]!).filter((w) => w.length > 3 && !ENGLISH_WORDS.has(w)),
);
/**
 * Most lines are on a listener's screen within this of their first word being heard (issue 46's target,
 * measured by bench/captions); none later than the overlay shows a line at all. Not a benchmark: on a
 * busy machine the recogniser falls behind at times, and says so.
 */
const IN_STEP_SECONDS = 3;
/** What the player's heard second is known to within (it is read every quarter second). */
const MEASURE_SLACK = 0.5;
/** Lines each listener must read, and how long they may take (the programme is longer). */
const LINES_READ = 4;
const LISTEN_MS = 150_000;

interface Seen {
  at: number;
  timestamp: number;
  /** The line's words, without the confidence note under a machine translation. */
  text: string;
  note: string;
  automatic: boolean;
  ahead: number;
  /** The second the player was playing when it picked the line (the overlay's data-heard). */
  playerHeard: number;
}

let station: RunningStation;
let browser: Browser;
let translator: Awaited<ReturnType<typeof startLibreTranslate>>;
let encoder: ChildProcess | undefined;

beforeAll(async () => {
  mkdirSync(IMAGES, { recursive: true });
  browser = await launchBrowser();
});
// A station and a translator of their own for each attempt: a retry starts again from a new station.
beforeEach(async () => {
  translator = await startLibreTranslate({ words: { es: SPANISH } });
  station = await startStation({
    STATION_TIMEZONE: zone,
    SEED_DEMO: 'false',
    SPEECH_ENGINE: 'pocketsphinx',
    TRANSLATE_URL: translator.url,
  });
});
afterEach(async () => {
  encoder?.kill('SIGKILL');
  encoder = undefined;
  await station?.stop();
  await translator?.close();
});
afterAll(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true }).click();
const toast = (page: Page, text: string) =>
  page
    .getByRole('region', { name: /Notifications/ })
    .getByText(text, { exact: true })
    .first();

async function signIn(page: Page, username: string, password: string) {
  await visit(page, `${station.url}/dashboard-mgmt`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('tablist').first().waitFor();
}

/** A listener with subtitles on in `language`, playing the station, whose every new line is noted. */
async function listener(language: string, viewport: { width: number; height: number }) {
  const opened = await openPage(browser, { viewport });
  await opened.context.addInitScript(
    ([lang]) => {
      if (sessionStorage.getItem('seeded')) return;
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('subtitles-enabled', 'true');
      localStorage.setItem('subtitles-language', lang!);
    },
    [language],
  );
  await visit(opened.page, station.url);
  await opened.page.getByRole('button', { name: 'Turn On' }).click();
  await opened.page.getByRole('button', { name: 'Turn Off' }).waitFor({ timeout: 30_000 });
  // Each line as it appears, with how much audio the player held ahead of what was being heard then.
  await opened.page.evaluate(() => {
    const w = window as unknown as { __seen: Seen[] };
    w.__seen = [];
    let last: string | undefined;
    const audio = document.querySelector<HTMLAudioElement>('audio[data-station-player]')!;
    setInterval(() => {
      const line = document.querySelector<HTMLElement>('[data-testid="subtitle-line"]');
      const key = line ? `${line.dataset.timestamp}|${line.textContent}` : undefined;
      if (!line || key === last) return;
      last = key;
      const words = [...line.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE);
      const overlay = document.querySelector<HTMLElement>('[data-testid="subtitle-overlay"]');
      w.__seen.push({
        at: performance.now(),
        timestamp: Number(line.dataset.timestamp),
        text: words.map((n) => n.textContent).join(''),
        note: line.querySelector('span')?.textContent ?? '',
        automatic: document.querySelector('[data-testid="subtitle-automatic"]') !== null,
        ahead: audio.buffered.length ? audio.buffered.end(audio.buffered.length - 1) - audio.currentTime : 0,
        playerHeard: Number(overlay?.dataset.heard),
      });
    }, 20);
  });
  return opened;
}

/**
 * The lines a listener saw, each with the stream second they were hearing when it appeared: the player's
 * own (the stream clock carried with the audio it plays), and an estimate from the station's clock less
 * the audio the player held ahead (as bench/captions reads it), printed with DEBUG beside it.
 */
async function linesHeard(page: Page) {
  const now = await page.evaluate(async () => {
    for (;;) {
      const started = performance.now();
      const body = (await (await fetch('/api/radio/current', { cache: 'no-store' })).json()) as {
        stream_clock: number;
      };
      const ended = performance.now();
      if (ended - started < 500) return { at: (started + ended) / 2, clock: body.stream_clock };
    }
  });
  const seen = await page.evaluate(() => (window as unknown as { __seen: Seen[] }).__seen);
  return seen.map((s) => ({
    ...s,
    heard: s.playerHeard,
    estimate: now.clock - (now.at - s.at) / 1000 - s.ahead,
  }));
}

describe('captions from speech, end to end', () => {
  it("staff turn automatic captions on for a presenter's live programme; listeners hear the presenter and read what is said, in English and in Spanish, marked Auto-generated, in step with the voice", async () => {
    // The sentences as the presenter's encoder sends them: one MP3, looped at real speed.
    const spoken = await Promise.all(SENTENCES.map((s) => speak(s)));
    const durations = spoken.map(secondsOf);
    const onsets: number[] = [];
    let at = LEAD;
    for (const seconds of durations) {
      onsets.push(at);
      at += seconds + GAP;
    }
    const loopSeconds = at;
    const speech = await presenterMp3(joined([silence(LEAD), ...spoken.flatMap((p) => [p, silence(GAP)])]));

    // Staff: a presenter's account, their live programme at the next whole minute, captions on for it.
    const staff = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    const { page } = staff;
    await signIn(page, E2E_ADMIN.username, E2E_ADMIN.password);
    await tab(page, 'User Management');
    const createUser = page.getByRole('form', { name: 'Create user' });
    await createUser.getByLabel('Username').fill(PRESENTER.username);
    await createUser.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Presenter' }).click();
    await createUser.getByLabel('Password', { exact: true }).fill(PRESENTER.password);
    await createUser.getByLabel('Confirm Password').fill(PRESENTER.password);
    await createUser.getByRole('button', { name: 'Create User' }).click();
    await toast(page, 'User created successfully').waitFor();

    await tab(page, 'Schedule');
    const start = Math.ceil((Date.now() + 30_000) / 60_000) * 60_000;
    await page.getByRole('button', { name: 'Add programme', exact: true }).click();
    const form = page.getByRole('form', { name: 'Add programme' });
    await form.getByLabel('Title').fill(LIVE);
    await form.getByLabel('Start time').fill(clockIn(zone, start));
    await form.getByLabel('Duration (minutes)').fill('4');
    await form.getByLabel('Plays').selectOption({ label: 'Live from a presenter' });
    await form.getByLabel('Presenter').selectOption({ label: PRESENTER.username });
    await form.getByRole('button', { name: 'Add programme' }).click();
    await toast(page, 'Programme added').waitFor();
    expect(start - Date.now(), 'ms to spare before the live programme').toBeGreaterThan(5_000);

    await tab(page, 'Captions');
    const captionsOn = page.getByRole('switch', { name: "Caption the station's speech" });
    await captionsOn.click();
    await expect.poll(() => captionsOn.getAttribute('aria-checked')).toBe('true');
    const programme = page.getByRole('checkbox', { name: new RegExp(`^${LIVE} `) });
    // Saved as it is ticked: it shows ticked once the station has it.
    await programme.click();
    await expect.poll(() => programme.isChecked()).toBe(true);
    const status = page.getByTestId('speech-status');
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/engine: pocketsphinx/);

    // The presenter makes a source password for their encoder.
    const presenter = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await signIn(presenter.page, PRESENTER.username, PRESENTER.password);
    await presenter.page.getByTestId('my-programme').filter({ hasText: LIVE }).waitFor();
    await presenter.page.getByRole('button', { name: 'New Source Password' }).click();
    const sourcePassword = await presenter.page
      .getByRole('textbox', { name: 'Your new source password' })
      .inputValue();
    await presenter.context.close();

    // Two listeners: one reads English on a phone, one Spanish on a computer.
    const english = await listener('en', { width: 390, height: 844 });
    const spanish = await listener('es', { width: 1280, height: 800 });

    // The programme starts; the presenter's encoder connects and goes on the air at once.
    await page.waitForTimeout(Math.max(0, start - Date.now() + 1000));
    encoder = spawn(
      ffmpegPath(),
      [
        ...['-nostdin', '-v', 'error', '-re', '-stream_loop', '-1', '-i', speech],
        ...['-c:a', 'libmp3lame', '-b:a', '128k', '-ar', '44100', '-ac', '2'],
        ...['-content_type', 'audio/mpeg', '-f', 'mp3'],
        `icecast://${PRESENTER.username}:${sourcePassword}@127.0.0.1:${station.port}/stream`,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const current = async () =>
      (await (await fetch(`${station.url}/api/radio/current`)).json()) as {
        is_live: boolean;
        current_track: { started_at: number };
      };
    await expect.poll(async () => (await current()).is_live, { timeout: 20_000 }).toBe(true);
    const liveFrom = (await current()).current_track.started_at;
    // Staff see it listening to the programme.
    await expect
      .poll(() => status.textContent(), { timeout: 20_000 })
      .toMatch(/^Listening · Live: Midday Word/);

    // Each listener reads lines of the sentences as they are said (the recogniser's pause notice aside).
    const automatic = async (p: Page) =>
      (await linesHeard(p)).filter((l) => l.automatic && l.text !== CAPTIONS_PAUSED_TEXT);
    for (const p of [english.page, spanish.page]) {
      await expect
        .poll(async () => (await automatic(p)).length, { timeout: LISTEN_MS, interval: 1000 })
        .toBeGreaterThanOrEqual(LINES_READ);
    }

    // The Spanish listener's screen with an automatic line on it.
    await spanish.page.getByTestId('subtitle-automatic').waitFor({ timeout: 60_000 });
    await spanish.page.screenshot({ path: path.join(IMAGES, 'listener-automatic-captions.png') });

    const englishLines = await automatic(english.page);
    const spanishLines = await automatic(spanish.page);
    if (process.env.DEBUG) {
      for (const [name, lines] of [
        ['en', englishLines],
        ['es', spanishLines],
      ] as const) {
        for (const l of lines) {
          const late = (l.heard - l.timestamp).toFixed(2);
          console.log(name, l.timestamp, l.heard, l.estimate.toFixed(2), late, l.text, l.note);
        }
      }
      console.log('live from', liveFrom, 'onsets', onsets, 'loop', loopSeconds);
      for (const c of translator.calls.filter((c) => c.target === 'es'))
        console.log('asked', c.q, '->', c.translatedText);
      console.log(station.output());
    }

    // What they read is what was said: in English the sentences' words, in Spanish their translation, as
    // the translator gave it for a line recognised in English.
    const said = (lines: { text: string }[], words: Set<string>) =>
      new Set(lines.flatMap((l) => wordsOf(l.text)).filter((w) => words.has(w)));
    expect([...said(englishLines, ENGLISH_WORDS)].length).toBeGreaterThanOrEqual(3);
    expect([...said(spanishLines, SPANISH_WORDS)].length).toBeGreaterThanOrEqual(3);
    const asked = translator.calls.filter((c) => c.target === 'es');
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((c) => c.source === 'en' && c.format === 'text')).toBe(true);
    const translated = new Set(asked.map((c) => c.translatedText));
    expect(spanishLines.filter((l) => !translated.has(l.text))).toEqual([]);
    // The English lines the Spanish listener also saw, at the same second, are the ones translated.
    for (const es of spanishLines) {
      const en = englishLines.find((l) => l.timestamp === es.timestamp);
      if (en) expect(asked.find((c) => c.q === en.text)?.translatedText).toBe(es.text);
    }

    // In step with the voice: a line is stamped in a sentence's time on the air (at the first whole second
    // at or after its first word), appears no earlier than the listener hears that second (nor the
    // sentence's first word), and within a few seconds of it.
    const sentenceAt = (second: number) => {
      const loop = Math.floor((second - liveFrom) / loopSeconds);
      for (const k of [loop - 1, loop, loop + 1]) {
        for (const [i, onset] of onsets.entries()) {
          const from = liveFrom + k * loopSeconds + onset;
          if (second >= Math.floor(from) - 1 && second <= from + durations[i]! + 1) return from;
        }
      }
      return null;
    };
    for (const l of [...englishLines, ...spanishLines]) {
      const from = sentenceAt(l.timestamp);
      expect(from, `'${l.text}' at ${l.timestamp} is in a sentence`).not.toBeNull();
      expect(l.heard, `'${l.text}' not before its second`).toBeGreaterThanOrEqual(
        l.timestamp - MEASURE_SLACK,
      );
      expect(l.heard, `'${l.text}' not before the voice`).toBeGreaterThanOrEqual(from! - MEASURE_SLACK);
      expect(l.heard - Math.max(l.timestamp, from!), `'${l.text}' shown at all`).toBeLessThanOrEqual(
        SUBTITLE_WINDOW_SECONDS.overlay + MEASURE_SLACK,
      );
    }
    for (const lines of [englishLines, spanishLines]) {
      const inStep = lines.filter(
        (l) => l.heard - Math.max(l.timestamp, sentenceAt(l.timestamp)!) <= IN_STEP_SECONDS,
      );
      expect(inStep.length, 'lines in step with the voice').toBeGreaterThanOrEqual(lines.length / 2);
    }

    expect(english.problems).toEqual([]);
    expect(spanish.problems).toEqual([]);
    expect(staff.problems).toEqual([]);
    encoder.kill('SIGTERM');
  }, 420_000);
});

/** The presenter's speech as an MP3 file, from the station's kind of PCM (44.1 kHz stereo float). */
async function presenterMp3(pcm: Float32Array): Promise<string> {
  const raw = path.join(work, 'presenter.f32');
  const mp3 = path.join(work, 'presenter.mp3');
  writeFileSync(raw, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  await new Promise<void>((resolve, reject) => {
    const ff = spawn(ffmpegPath(), [
      ...['-hide_banner', '-v', 'error', '-f', 'f32le', '-ar', '44100', '-ac', '2', '-i', raw],
      ...['-b:a', '128k', '-y', mp3],
    ]);
    ff.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}`))));
  });
  return mp3;
}
