import { execFile, spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileDecoder } from './file-decoder.js';
import { ffmpegPath } from './ffmpeg.js';
import { id3v2Size } from './mp3-frames.js';
import { cleanMp3Start, firstMp3Frame, mpg123Args, mpg123Path } from './mpg123.js';
import { CHANNELS, PCM_ARGS, SAMPLE_RATE } from './pcm.js';
import { ebur128, makeAudio, makeTone, tempAudioDir } from './test-audio.js';

/**
 * mpg123 decodes the library's MP3s where the system has it (CI installs it): what it sends the mixer must be
 * what ffmpeg would have sent, in loudness, length and trimming, for every kind of MP3 the library takes.
 */
const run = promisify(execFile);
const mpg123 = mpg123Path();
let dir: string;

beforeAll(async () => {
  dir = await tempAudioDir();
});

/** Decodes to the internal format on stdout and answers the samples. */
function decode(path: string, args: string[]): Promise<Float32Array> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${path} exited ${code}`));
      const all = Buffer.concat(chunks);
      resolve(new Float32Array(all.buffer, all.byteOffset, all.byteLength / 4));
    });
  });
}

const ffmpegDecode = (file: string, span: { from: number; length: number | null; gainDb: number }) =>
  decode(ffmpegPath(), [
    ...['-v', 'error', ...(span.from > 0 ? ['-ss', String(span.from)] : []), '-i', file],
    ...(span.length !== null ? ['-t', String(span.length)] : []),
    ...['-af', `volume=${span.gainDb}dB`, ...PCM_ARGS, 'pipe:1'],
  ]);

/** Integrated loudness of internal-format samples, as the library measures files. */
async function loudness(samples: Float32Array): Promise<number> {
  const raw = join(dir, `pcm-${Math.random().toString(36).slice(2)}.f32`);
  await writeFile(raw, samples);
  return (await ebur128(raw, { inputArgs: PCM_ARGS })).lufs;
}

const seconds = (samples: Float32Array) => samples.length / CHANNELS / SAMPLE_RATE;
/** mpg123 seeks by whole frames: at 22.05 kHz, a frame is 26 ms and the encoder's delay 50 ms. */
const SEEK_SLACK = (576 + 1105) / 22_050;

describe.skipIf(!mpg123)('MP3s decoded by mpg123', () => {
  const cases = [
    { name: 'stereo 44.1 kHz, 192 kbps', channels: 2 as const, sampleRate: 44_100, bitrate: '192k' },
    { name: 'mono 44.1 kHz, 64 kbps', channels: 1 as const, sampleRate: 44_100, bitrate: '64k' },
    { name: 'stereo 48 kHz, 128 kbps', channels: 2 as const, sampleRate: 48_000, bitrate: '128k' },
    { name: 'mono 32 kHz, 48 kbps', channels: 1 as const, sampleRate: 32_000, bitrate: '48k' },
    { name: 'stereo 22.05 kHz (MPEG-2), 64 kbps', channels: 2 as const, sampleRate: 22_050, bitrate: '64k' },
  ];
  const spans = [
    { from: 0, length: null, gainDb: 0 },
    { from: 1.5, length: 3, gainDb: -7.5 },
    { from: 4.25, length: null, gainDb: 4 },
  ];

  for (const kind of cases)
    it(`sends what ffmpeg would for a ${kind.name} file: loudness within 0.2 LU, the same length`, async () => {
      const file = join(dir, `${kind.name.replace(/\W+/g, '-')}.mp3`);
      await makeAudio(file, 'anoisesrc=color=pink:seed=4', {
        seconds: 8,
        filter: 'tremolo=f=3:d=0.5,volume=-12dB',
        extra: ['-ar', String(kind.sampleRate), '-ac', String(kind.channels), '-b:a', kind.bitrate],
      });
      const header = firstMp3Frame(file)!;
      expect(header).toMatchObject({ sampleRate: kind.sampleRate, channels: kind.channels });
      for (const span of spans) {
        const [ours, theirs] = await Promise.all([
          decode(mpg123!, mpg123Args(file, header, span)),
          ffmpegDecode(file, span),
        ]);
        // The whole file to the sample; from a seek, at most a frame and the encoder's delay (1105 samples) more.
        const extra = seconds(ours) - seconds(theirs);
        if (span.from === 0 && span.length === null) expect(extra).toBe(0);
        else expect(extra).toBeGreaterThanOrEqual(0);
        expect(extra).toBeLessThan(SEEK_SLACK);
        expect(Math.abs((await loudness(ours)) - (await loudness(theirs)))).toBeLessThan(0.2);
      }
    });

  it('finds the first frame after an ID3v2 tag carrying a large cover picture', async () => {
    const cover = join(dir, 'cover.png');
    // A picture larger than the first read of a file (16 KB), so the frame is found past it.
    await run(ffmpegPath(), [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=1024x1024'],
      ...['-frames:v', '1', cover],
    ]);
    const file = await makeTone(join(dir, 'tagged.mp3'), {
      sampleRate: 48_000,
      inputs: ['-i', cover],
      extra: ['-map', '0', '-map', '1', '-c:v', 'copy', '-id3v2_version', '3', '-b:a', '96k'],
    });
    expect(id3v2Size(await readFile(file))).toBeGreaterThan(16 * 1024);
    expect(firstMp3Frame(file)).toMatchObject({ sampleRate: 48_000, bitrateKbps: 96 });
  });

  it('finds no frame in what is not an MP3', async () => {
    const wav = await makeTone(join(dir, 'tone.wav'));
    const text = join(dir, 'notes.mp3');
    await writeFile(text, 'Sunday: bring the hymn books.\n'.repeat(100));
    expect(firstMp3Frame(wav)).toBeNull();
    expect(firstMp3Frame(text)).toBeNull();
    expect(firstMp3Frame(join(dir, 'missing.mp3'))).toBeNull();
  });

  it('reads past a damaged stretch to the end, as ffmpeg does', async () => {
    const whole = await readFile(await makeTone(join(dir, 'damaged.mp3'), { seconds: 10 }));
    // 3 KB of noise a third of the way in: mpg123 on its own gives up after 1 KB and stops there.
    const damaged = Buffer.concat([
      whole.subarray(0, Math.round(whole.length / 3)),
      Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919 + 13) % 251)),
      whole.subarray(Math.round(whole.length / 3) + 3000),
    ]);
    const file = join(dir, 'damaged-copy.mp3');
    await writeFile(file, damaged);
    const span = { from: 0, length: null, gainDb: 0 };
    const [ours, theirs] = await Promise.all([
      decode(mpg123!, mpg123Args(file, firstMp3Frame(file)!, span)),
      ffmpegDecode(file, span),
    ]);
    expect(seconds(theirs)).toBeGreaterThan(9.5);
    expect(Math.abs(seconds(ours) - seconds(theirs))).toBeLessThan(0.1);
  });

  it('plays a library MP3 through mpg123 and anything else through ffmpeg', async () => {
    const mp3 = await makeTone(join(dir, 'hymn.mp3'), { seconds: 20 });
    const flac = await makeTone(join(dir, 'psalm.flac'), { seconds: 20 });
    const decoders = [mp3, flac].map(
      (path) => new FileDecoder({ path, from: 0, to: null, gainDb: 0 }, { aheadSeconds: 1 }),
    );
    try {
      const { stdout } = await run('ps', ['-o', 'args=', '--ppid', String(process.pid)]);
      const lines = stdout.split('\n');
      expect(lines.find((line) => line.includes(mp3))).toMatch(/^\S*mpg123 /);
      expect(lines.find((line) => line.includes(flac))).toMatch(/^\S*ffmpeg /);
    } finally {
      for (const decoder of decoders) decoder.close();
    }
  });
});

describe('cleanMp3Start', () => {
  it.each([
    ['an MP3 with its Info header, 44.1 kHz stereo', ['-b:a', '128k'], 44_100, 2, true],
    ['a mono MPEG-2 MP3 with its Info header', ['-ar', '22050', '-ac', '1', '-b:a', '32k'], 22_050, 1, true],
    ['a CBR MP3 without one', ['-b:a', '96k', '-write_xing', '0'], 44_100, 2, false],
  ] as const)('knows %s and the duration it claims', async (name, extra, rate, channels, claims) => {
    const file = await makeTone(join(dir, `${name.replace(/\W+/g, '-')}.mp3`), {
      seconds: 6,
      extra: ['-ac', '2', ...extra],
    });
    const found = cleanMp3Start(file);
    expect(found?.header).toMatchObject({ sampleRate: rate, channels });
    // What the header claims is whole frames: the encoder's delay and padding at most a frame or two more.
    if (claims) expect(found!.claimedSeconds).toBeGreaterThanOrEqual(6);
    if (claims) expect(found!.claimedSeconds).toBeLessThan(6.15);
    else expect(found!.claimedSeconds).toBeNull();
  });

  it("reads a VBRI header's frame count", async () => {
    const file = await makeTone(join(dir, 'vbri.mp3'), {
      seconds: 3,
      extra: ['-b:a', '128k', '-write_xing', '0'],
    });
    const bytes = await readFile(file);
    const start = id3v2Size(bytes);
    bytes.write('VBRI', start + 36, 'latin1');
    bytes.writeUInt32BE(5000, start + 50);
    await writeFile(file, bytes);
    expect(cleanMp3Start(file)?.claimedSeconds).toBeCloseTo((5000 * 1152) / 44_100, 6);
  });

  it('leaves to ffprobe what does not start as eight whole MP3 frames in a row', async () => {
    const mp3 = await readFile(await makeTone(join(dir, 'clean.mp3'), { extra: ['-b:a', '64k'] }));
    const files: Record<string, Buffer> = {
      'zeros after a few frames': Buffer.from(mp3).fill(0, 1200),
      'junk before the frames': Buffer.concat([Buffer.from('RIFF junk'), mp3]),
      'random bytes': Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7919) % 256)),
      empty: Buffer.alloc(0),
    };
    for (const [name, bytes] of Object.entries(files)) {
      const file = join(dir, `${name.replace(/\W+/g, '-')}.bin`);
      await writeFile(file, bytes);
      expect(cleanMp3Start(file), name).toBeNull();
    }
    expect(cleanMp3Start(await makeTone(join(dir, 'clean.wav')))).toBeNull();
    expect(cleanMp3Start(join(dir, 'missing.mp3'))).toBeNull();
  });
});

afterAll(() => rm(dir, { recursive: true, force: true }));
