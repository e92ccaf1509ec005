import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TranscriptionServerRecogniser, type TranscriptionServer } from './openai-transcriptions.js';
import type { RecognisedWords } from './recogniser.js';
import { SpeechResampler } from './resample.js';
import { joined, secondsOf, silence, speak } from './spoken.js';

const FIRST = 'Today we read from the book of Psalms.';
const SECOND = 'The Lord is my shepherd.';
const CLOCK = 500;

interface Received {
  headers: IncomingMessage['headers'];
  form: FormData;
  seconds: number;
}

/**
 * A transcription server speaking OpenAI's protocol: multipart in, verbose_json out (text, words with
 * start and end, segments), its words spread over the audio it was sent. `answer` picks each reply.
 */
async function transcriptionServer(
  answer: (r: Received, n: number) => { status: number; text?: string } | 'hang',
) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const form = await new Request('http://localhost/', {
          method: 'POST',
          headers: { 'content-type': req.headers['content-type']! },
          body,
        }).formData();
        const wav = Buffer.from(await (form.get('file') as Blob).arrayBuffer());
        expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
        expect(wav.readUInt32LE(24)).toBe(16_000);
        expect(wav.readUInt16LE(22)).toBe(1);
        const seconds = wav.readUInt32LE(40) / 2 / 16_000;
        const r = { headers: req.headers, form, seconds };
        received.push(r);
        const reply = answer(r, received.length - 1);
        if (reply === 'hang') return;
        if (reply.status !== 200) {
          res.writeHead(reply.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'model not loaded', type: 'server_error' } }));
          return;
        }
        const words = (reply.text ?? '').split(' ');
        const each = seconds / words.length;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            task: 'transcribe',
            language: 'english',
            duration: seconds,
            text: reply.text,
            words: words.map((word, i) => ({ word, start: i * each, end: (i + 1) * each })),
            segments: [
              {
                id: 0,
                seek: 0,
                start: 0,
                end: seconds,
                text: ` ${reply.text}`,
                tokens: [50364, 440],
                temperature: 0,
                avg_logprob: -0.21,
                compression_ratio: 0.9,
                no_speech_prob: 0.01,
              },
            ],
          }),
        );
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/audio/transcriptions`;
  return { url, received };
}

const servers: Server[] = [];
const engines: TranscriptionServerRecogniser[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
  for (const s of servers.splice(0)) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

function engine(server: TranscriptionServer) {
  const e = new TranscriptionServerRecogniser(server);
  engines.push(e);
  return e;
}

function feed(e: TranscriptionServerRecogniser, pcm: Float32Array) {
  const resampler = new SpeechResampler();
  const chunk = 1152 * 8 * 2;
  for (let at = 0; at < pcm.length; at += chunk) {
    const speech = resampler.push(pcm.subarray(at, at + chunk), CLOCK + at / 2 / 44_100);
    if (speech) e.feed(speech.clock, speech.samples);
  }
}

const until = (check: () => boolean) =>
  new Promise<void>((resolve) => {
    const t = setInterval(() => {
      if (check()) {
        clearInterval(t);
        resolve();
      }
    }, 10);
  });

describe('TranscriptionServerRecogniser', () => {
  it('sends each spoken phrase as a WAV and puts the words it gets back on the stream clock', async () => {
    const [first, second] = await Promise.all([speak(FIRST), speak(SECOND)]);
    const pcm = joined([silence(1), first, silence(2), second, silence(1)]);
    const firstStarts = CLOCK + 1;
    const secondStarts = firstStarts + secondsOf(first) + 2;
    const texts = ['Today we read from the book of Psalms.', 'The Lord is my shepherd.'];
    const { url, received } = await transcriptionServer((_r, n) => ({ status: 200, text: texts[n] }));
    const e = engine({ url, model: 'whisper-1', apiKey: 'sk-local', language: 'en' });
    e.setWordList(['Psalms', 'Habakkuk']);
    const got: RecognisedWords[] = [];
    e.onWords((w) => got.push(w));
    feed(e, pcm);
    await until(() => got.length === 2);
    expect(received).toHaveLength(2);
    const [a, b] = received as [Received, Received];
    expect(a.headers.authorization).toBe('Bearer sk-local');
    expect(a.form.get('model')).toBe('whisper-1');
    expect(a.form.get('response_format')).toBe('verbose_json');
    expect(a.form.getAll('timestamp_granularities[]')).toContain('word');
    expect(a.form.get('language')).toBe('en');
    expect(a.form.get('prompt')).toBe('Psalms, Habakkuk');
    // Each segment is its phrase (a little lead and the pause after it), not the silence between.
    expect(a.seconds).toBeGreaterThan(secondsOf(first) - 0.1);
    expect(a.seconds).toBeLessThan(secondsOf(first) + 1);
    expect(b.seconds).toBeLessThan(secondsOf(second) + 1);
    const [one, two] = got as [RecognisedWords, RecognisedWords];
    expect(one.words.map((w) => w.text).join(' ')).toBe(texts[0]);
    expect(one.words[0]!.start).toBeCloseTo(firstStarts - 0.2, 0);
    expect(one.words.at(-1)!.end).toBeLessThan(secondStarts);
    expect(two.words[0]!.start).toBeGreaterThan(secondStarts - 0.3);
    expect(two.words[0]!.start).toBeLessThan(secondStarts + 0.1);
    expect(e.status()).toEqual({
      engine: 'openai-transcriptions',
      state: 'listening',
      behindSeconds: 0,
      reason: null,
    });
  }, 30_000);

  it('says it is paused while its server fails or hangs, and comes back when it answers', async () => {
    const phrase = await speak(SECOND);
    const answers: Array<{ status: number; text?: string } | 'hang'> = [
      { status: 503 },
      'hang',
      { status: 200, text: 'The Lord is my shepherd.' },
    ];
    const { url } = await transcriptionServer((_r, n) => answers[n]!);
    const e = engine({ url, model: 'whisper-1', timeoutMs: 500 });
    const got: RecognisedWords[] = [];
    e.onWords((w) => got.push(w));
    feed(e, joined([phrase, silence(1)]));
    await until(() => e.status().state === 'paused');
    expect(e.status().reason).toBe('its server answered 503');
    feed(e, joined([phrase, silence(1)]));
    await until(() => e.status().reason === 'it stopped answering for 1 s');
    feed(e, joined([phrase, silence(1)]));
    await until(() => got.length === 1);
    expect(e.status().state).toBe('listening');
  }, 30_000);

  it('refuses an answer that is no transcription, saying so', async () => {
    const phrase = await speak(SECOND);
    const { url } = await transcriptionServer(() => ({ status: 200 }));
    const e = engine({ url, model: 'whisper-1' });
    feed(e, joined([phrase, silence(1)]));
    await until(() => e.status().state === 'paused');
    expect(e.status().reason).toBe('its server answered something other than a transcription');
  }, 30_000);
});
