import { afterEach, describe, expect, it } from 'vitest';
import { PocketSphinxRecogniser } from './pocketsphinx.js';
import type { RecognisedWords, TimedWord } from './recogniser.js';
import { SpeechResampler } from './resample.js';
import { joined, secondsOf, silence, speak } from './spoken.js';
import { wordErrorRate } from './word-error-rate.js';

const FIRST = 'Today we read from the book of Psalms.';
const SECOND = 'The Lord is my shepherd, I shall not want.';
/** Where the stream clock stood at the first sample fed. */
const CLOCK = 1000;

let open: PocketSphinxRecogniser[] = [];
afterEach(async () => {
  await Promise.all(open.map((r) => r.close()));
  open = [];
});

function recogniser(options: ConstructorParameters<typeof PocketSphinxRecogniser>[0] = {}) {
  const r = new PocketSphinxRecogniser({ maxBacklogSeconds: 120, ...options });
  open.push(r);
  return r;
}

const listening = (r: PocketSphinxRecogniser) =>
  new Promise<void>((resolve) => {
    const check = setInterval(() => {
      if (r.status().state === 'listening') {
        clearInterval(check);
        resolve();
      }
    }, 20);
  });

/** Feeds the station's mix as the engine's tap would: 8 MP3 frames' worth a time, on the stream clock. */
function feed(r: PocketSphinxRecogniser, pcm: Float32Array, clock = CLOCK) {
  const resampler = new SpeechResampler();
  const chunk = 1152 * 8 * 2;
  for (let at = 0; at < pcm.length; at += chunk) {
    const part = pcm.subarray(at, at + chunk);
    const speech = resampler.push(part, clock + at / 2 / 44_100);
    if (speech) r.feed(speech.clock, speech.samples);
  }
}

/** Every word out until `until` has been decoded (the recogniser's `at` passed it). */
function collect(
  r: PocketSphinxRecogniser,
  until: number,
): Promise<{ words: TimedWord[]; batches: RecognisedWords[] }> {
  const batches: RecognisedWords[] = [];
  r.onWords((w) => batches.push(w));
  return new Promise((resolve) => {
    const check = setInterval(() => {
      const behind = r.status();
      if (behind.behindSeconds !== null && behind.behindSeconds < 0.05 && batches.some((b) => b.final)) {
        const last = batches.at(-1)!.words.at(-1)!;
        if (last.end <= until) {
          clearInterval(check);
          resolve({ words: batches.flatMap((b) => b.words), batches });
        }
      }
    }, 50);
  });
}

describe('PocketSphinxRecogniser', () => {
  it('hears espeak-ng speak a known text: its words, at their times on the stream clock', async () => {
    const [first, second] = await Promise.all([speak(FIRST), speak(SECOND)]);
    const lead = 2;
    const gap = 3;
    const pcm = joined([silence(lead), first, silence(gap), second, silence(2)]);
    const firstEnds = CLOCK + lead + secondsOf(first);
    const secondStarts = firstEnds + gap;
    const r = recogniser();
    await listening(r);
    const done = collect(r, CLOCK + secondsOf(pcm));
    feed(r, pcm);
    const { words } = await done;
    const said = words.map((w) => w.text);
    // espeak-ng's voice is hard for this model ('the lord is my chair paired'): most words, not all.
    expect(wordErrorRate(`${FIRST} ${SECOND}`, said.join(' '))).toBeLessThan(0.5);
    for (const word of ['read', 'book', 'lord']) expect(said).toContain(word);
    const at = (text: string) => words.find((w) => w.text === text)!;
    // Timing: each phrase's words fall inside that phrase's audio (a little slack for the edges).
    for (const text of ['read', 'book']) {
      expect(at(text).start).toBeGreaterThan(CLOCK + lead - 0.2);
      expect(at(text).end).toBeLessThan(firstEnds + 0.3);
    }
    for (const text of ['lord']) {
      expect(at(text).start).toBeGreaterThan(secondStarts - 0.2);
      expect(at(text).end).toBeLessThan(secondStarts + secondsOf(second) + 0.3);
    }
    // Words come out in order, none twice over.
    for (let i = 1; i < words.length; i++)
      expect(words[i]!.start).toBeGreaterThanOrEqual(words[i - 1]!.end - 0.01);
  }, 60_000);

  it('learns words of the word list that its dictionary lacks', async () => {
    const r = recogniser();
    const result = new Promise((resolve) => r.onWordList(resolve));
    r.setWordList(['Habakkuk', 'shepherd', 'Gethsemane']);
    await listening(r);
    expect(await result).toEqual({ known: ['shepherd'], added: ['habakkuk', 'gethsemane'], unknown: [] });
  }, 30_000);
});
