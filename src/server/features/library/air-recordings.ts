import { randomUUID } from 'node:crypto';
import { appendFile, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { AudioSettings } from '../../../common/audio-settings.js';
import { analyseAudio, runMediaTool, SilentAudioError } from '../../radio/analysis.js';
import type { AirEvent } from '../../radio/engine.js';
import { ffmpegPath } from '../../radio/ffmpeg.js';
import type { TimedFrame } from '../../radio/frame-history.js';
import * as repository from './repository.js';
import type { Database } from '../../db/client.js';

/** What the recorder needs of the library: its table, its folder, and the worker that measures new items. */
interface Library {
  db: Database;
  folders: { media: string };
  worker: { add(id: string): void };
  log: FastifyBaseLogger;
}

/** What the recorder needs of the radio engine: its events, the frames it broadcast, and its stream clock. */
export interface AirTap {
  onEvent(listener: (event: AirEvent) => void): () => void;
  framesBetween(from: number, to: number): TimedFrame[];
  clock(): number;
}

export interface AirRecorderOptions {
  /** The programme on air and who presents it (the schedule's answer for a live event). */
  describe: (event: AirEvent) => Promise<{ programme?: string; presenter?: string }>;
  audioSettings: () => Promise<AudioSettings>;
  station: () => { name: string; timeZone: string };
  /** How often the air is written to the recording's file, in ms (the engine keeps six minutes). */
  flushMs?: number;
}

/** A live programme shorter than this on air (a test connection, a slip of the mixer) is not kept. */
export const MIN_RECORDING_SECONDS = 5;
/**
 * A recording in progress: its frames so far (`.live-ID.mp3`), what it is (`.live-ID.json`), and its levelled
 * audio while it is made (`.live-ID.levelled`). Dot-names: the media folder's import leaves them alone.
 */
const LIVE_PREFIX = '.live-';
/** The recording's audio as published: MP3 like the air, at its main bitrate. */
const RECORDING_KBPS = 128;

interface Recording {
  id: string;
  audio: string;
  /** Stream-clock second up to which the air is in the file, and where the live programme ends (once it has). */
  upTo: number;
  endsAt: number | null;
  about: { title: string; artist: string; startedAt: string };
  /** The schedule's description, once it answered (the title waits for it when finishing). */
  described: Promise<void>;
}

/** '27 November 2026' in the station's time zone. */
export const longDate = (date: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'long', year: 'numeric' }).format(date);

/**
 * Records every live programme from the air (what listeners heard, frame for frame) and, once it is off the
 * air, adds it to the library as a sermon draft, cut to where its sound starts and ends and levelled to the
 * station's loudness target. Staff publish it from the Library tab. A recording a stop cut off is finished
 * at the next start.
 */
export function recordLiveProgrammes(library: Library, air: AirTap, options: AirRecorderOptions) {
  const flushMs = options.flushMs ?? 2000;
  let current: Recording | null = null;
  let finishing = Promise.resolve();
  const fileOf = (id: string, ext: 'mp3' | 'json') =>
    path.join(library.folders.media, `${LIVE_PREFIX}${id}.${ext}`);

  const begin = (event: Extract<AirEvent, { type: 'live_on_air' }>) => {
    const station = options.station();
    const id = randomUUID();
    const recording: Recording = {
      id,
      audio: fileOf(id, 'mp3'),
      upTo: event.clock,
      endsAt: null,
      about: {
        title: `${event.name} (${longDate(new Date(), station.timeZone)})`,
        artist: station.name,
        startedAt: new Date().toISOString(),
      },
      described: Promise.resolve(),
    };
    recording.described = options
      .describe(event)
      .then(async ({ programme, presenter }) => {
        if (programme) recording.about.title = `${programme} (${longDate(new Date(), station.timeZone)})`;
        if (presenter) recording.about.artist = presenter;
        await writeFile(fileOf(id, 'json'), JSON.stringify(recording.about));
      })
      .catch((error: unknown) => library.log.warn({ err: error }, 'live recording: not described'));
    current = recording;
    library.log.info({ title: recording.about.title }, 'live programme: recording from the air');
  };

  /** Appends the air broadcast since the last write, up to now or the programme's end. */
  const flush = async (recording: Recording) => {
    const until = Math.min(air.clock(), recording.endsAt ?? Infinity);
    const frames = air.framesBetween(recording.upTo, until).filter((f) => f.start >= recording.upTo - 1e-6);
    if (frames.length) {
      const last = frames.at(-1)!;
      recording.upTo = last.start + last.duration;
      await appendFile(recording.audio, Buffer.concat(frames.map((f) => f.data)));
    }
    return recording.endsAt !== null && air.clock() >= recording.endsAt;
  };

  let writing = Promise.resolve();
  const tick = () => {
    const recording = current;
    if (!recording) return;
    writing = writing
      .then(async () => {
        if (!(await flush(recording)) || current !== recording) return;
        current = null;
        await recording.described;
        finishing = finishing.then(() => finishRecording(library, recording.id, options, fileOf));
      })
      .catch((error: unknown) => library.log.warn({ err: error }, 'live recording: not written'));
  };
  const timer = setInterval(tick, flushMs);
  timer.unref();

  const off = air.onEvent((event) => {
    if (event.type === 'live_on_air' && !current) begin(event);
    if (event.type === 'live_off_air' && current) current.endsAt = event.clock;
  });

  // Recordings a stop (or a crash) cut off are finished now, as far as they went.
  finishing = readdir(library.folders.media)
    .then(async (names) => {
      for (const name of names.filter((n) => n.startsWith(LIVE_PREFIX) && n.endsWith('.mp3')))
        await finishRecording(library, name.slice(LIVE_PREFIX.length, -4), options, fileOf);
    })
    .catch((error: unknown) => library.log.warn({ err: error }, 'live recordings: not resumed'));

  return {
    /** Writes what aired so far; what is left is finished at the next start (a stop must stay quick). */
    async stop() {
      off();
      clearInterval(timer);
      const recording = current;
      current = null;
      await writing;
      if (recording) await flush(recording).catch(() => undefined);
      await recording?.described;
    },
    /** Resolves once every recording that has ended is in the library (tests). */
    settled: () => writing.then(() => finishing),
  };
}

/**
 * The raw recording, measured, is cut to its sound, levelled to the station's target under its true-peak
 * ceiling, encoded, and added as a sermon draft; the raw file goes. A recording too short or silent is dropped.
 */
async function finishRecording(
  library: Library,
  id: string,
  options: AirRecorderOptions,
  fileOf: (id: string, ext: 'mp3' | 'json') => string,
): Promise<void> {
  const raw = fileOf(id, 'mp3');
  const about = await readFile(fileOf(id, 'json'), 'utf8')
    .then((text) => JSON.parse(text) as Recording['about'])
    .catch(() => ({
      title: `${options.station().name} Live (${longDate(new Date(), options.station().timeZone)})`,
      artist: options.station().name,
      startedAt: new Date().toISOString(),
    }));
  const leave = async () => {
    await unlink(raw).catch(() => undefined);
    await unlink(fileOf(id, 'json')).catch(() => undefined);
  };
  try {
    const measured = await analyseAudio(raw);
    const seconds = measured.cueOutSeconds - measured.cueInSeconds;
    if (seconds < MIN_RECORDING_SECONDS) {
      library.log.info({ title: about.title, seconds }, 'live recording too short to keep');
      return await leave();
    }
    const settings = await options.audioSettings();
    const gain = settings.loudness_target_lufs - measured.loudnessLufs;
    const ceiling = 10 ** ((settings.true_peak_dbtp - 1) / 20);
    const name = `${id}.mp3`;
    const out = path.join(library.folders.media, `${LIVE_PREFIX}${id}.levelled`);
    const run = await runMediaTool(
      ffmpegPath(),
      [
        ...['-y', '-nostdin', '-hide_banner', '-nostats', '-threads', '1', '-protocol_whitelist', 'file'],
        ...['-i', raw, '-ss', String(measured.cueInSeconds), '-to', String(measured.cueOutSeconds)],
        ...[
          '-map',
          '0:a:0',
          '-vn',
          '-af',
          `volume=${gain.toFixed(2)}dB,alimiter=limit=${ceiling}:level=false`,
        ],
        ...['-c:a', 'libmp3lame', '-b:a', `${RECORDING_KBPS}k`, '-ar', '44100', '-ac', '2', '-f', 'mp3', out],
      ],
      { timeoutMs: 30 * 60_000 },
    );
    if (run.code !== 0) {
      await unlink(out).catch(() => undefined);
      throw new Error(`ffmpeg could not level the recording: ${run.stderr}`);
    }
    const file = path.join(library.folders.media, name);
    await rename(out, file);
    const row = await repository.insertRow(library.db, {
      id,
      title: about.title,
      artist: about.artist,
      kind: 'sermon',
      draft: true,
      originalName: `${about.title}.mp3`,
      path: `media/${name}`,
      format: 'mp3',
      sampleRate: 44100,
      channels: 2,
      sizeBytes: (await stat(file)).size,
      durationSeconds: seconds,
    });
    library.worker.add(row.id);
    library.log.info({ title: about.title, seconds: Math.round(seconds) }, 'live recording in the library');
    await leave();
  } catch (error) {
    if (error instanceof SilentAudioError) {
      library.log.info({ title: about.title }, 'live recording was silent; not kept');
      return await leave();
    }
    library.log.warn({ err: error, file: raw }, 'live recording not added to the library; its file is kept');
  }
}
