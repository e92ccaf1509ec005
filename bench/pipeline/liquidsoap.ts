// Liquidsoap (Debian's `liquidsoap`, 2.1) doing the station's job, as its users write it: one playlist in
// order, each track turned to the loudness target from its measured loudness (`replaygain` reading the
// track's gain annotation, as AzuraCast passes it), a 2 s crossfade, a limiter, four MP3 encodes.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LAME_QUALITY } from '../../src/server/radio/encoder-run';
import { ffprobePath } from '../../src/server/radio/ffmpeg';
import type { Track } from './tracks';

const run = promisify(execFile);

export const CROSSFADE_SECONDS = 2;

export interface Encode {
  kbps: number;
  path: string;
}

/** Liquidsoap's version line ('Liquidsoap 2.1.3'), or undefined when it is not installed. */
export async function liquidsoapVersion(): Promise<string | undefined> {
  const result = await run('liquidsoap', ['--version']).catch(() => undefined);
  return result?.stdout.split('\n')[0]?.trim();
}

/** The playlist, each track annotated with the gain that brings its measured loudness to the target. */
export function writePlaylist(tracks: Track[], path: string, targetLufs: number) {
  const line = (t: Track) => {
    const gain = targetLufs - t.lufs;
    return `annotate:replaygain_track_gain="${gain >= 0 ? '+' : ''}${gain.toFixed(2)} dB",title="${t.title}":${t.path}`;
  };
  writeFileSync(path, `${tracks.map(line).join('\n')}\n`);
}

/**
 * The script. `once`: the playlist a single time, as fast as the machine goes (the check that every
 * track decodes and every encode is written); otherwise in a loop, in real time, as on the air.
 */
function script(playlist: string, encodes: Encode[], once: boolean) {
  const outputs = encodes.map(
    (e) =>
      // The same LAME quality as ours: Liquidsoap's default (internal_quality=2) costs about half as much again.
      `output.file(fallible=true, on_stop=shutdown, %mp3(bitrate=${e.kbps}, internal_quality=${LAME_QUALITY}), ${JSON.stringify(e.path)}, s)`,
  );
  return [
    'settings.init.allow_root.set(true)', // containers and CI run the bench as root
    'settings.log.stdout.set(true)',
    'settings.log.file.set(false)',
    'settings.frame.audio.samplerate.set(44100)',
    `s = playlist(mode="normal", reload_mode="never", loop=${!once}, ${JSON.stringify(playlist)})`,
    's = replaygain(s)',
    `s = crossfade(duration=${CROSSFADE_SECONDS}., fade_in=${CROSSFADE_SECONDS}., fade_out=${CROSSFADE_SECONDS}., s)`,
    's = limit(threshold=-1., s)',
    ...(once ? ['clock.assign_new(sync="none", [s])'] : []),
    // Fallible outputs with no silence fallback: a track that failed would end the run, not hide in it.
    ...outputs,
    '',
  ].join('\n');
}

export interface Liquidsoap {
  child: ChildProcess;
  /** Its log so far (the last 64 KB). */
  log(): string;
  exited: Promise<number | null>;
}

export function startLiquidsoap(
  dir: string,
  name: string,
  playlist: string,
  encodes: Encode[],
  once: boolean,
) {
  const path = join(dir, `${name}.liq`);
  writeFileSync(path, script(playlist, encodes, once));
  const child = spawn('liquidsoap', [path], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const collect = (chunk: Buffer) => (log = (log + chunk.toString()).slice(-65536));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, log: () => log, exited } satisfies Liquidsoap;
}

/** Tracks Liquidsoap has started (one 'Prepared' line each). */
export const preparedTracks = (log: string) => log.match(/Prepared "/g)?.length ?? 0;

export interface EncodeCheck {
  kbps: number;
  codec: string;
  measuredKbps: number;
  sampleRate: number;
  channels: number;
  /** From the MPEG frames actually in the file, not the header's estimate. */
  seconds: number;
}

/** What is really in each encode: codec, bitrate, and length counted frame by frame. */
export async function probeEncodes(encodes: Encode[]): Promise<EncodeCheck[]> {
  return Promise.all(
    encodes.map(async (e) => {
      const { stdout } = await run(ffprobePath(), [
        ...['-v', 'error', '-count_packets', '-select_streams', 'a:0', '-of', 'json'],
        ...[
          '-show_entries',
          'stream=codec_name,sample_rate,channels,nb_read_packets:format=bit_rate',
          e.path,
        ],
      ]);
      const probed = JSON.parse(stdout) as {
        streams?: { codec_name: string; sample_rate: string; channels: number; nb_read_packets: string }[];
        format?: { bit_rate?: string };
      };
      const stream = probed.streams?.[0];
      const sampleRate = Number(stream?.sample_rate ?? 0);
      return {
        kbps: e.kbps,
        codec: stream?.codec_name ?? 'none',
        measuredKbps: Number(probed.format?.bit_rate ?? 0) / 1000,
        sampleRate,
        channels: stream?.channels ?? 0,
        // An MPEG-1 Layer III frame holds 1152 samples.
        seconds: sampleRate > 0 ? (Number(stream?.nb_read_packets ?? 0) * 1152) / sampleRate : 0,
      };
    }),
  );
}

/** What is wrong with a set of encodes: not MP3, not at their bitrate, or not the expected length. */
export function encodeProblems(checks: EncodeCheck[], minSeconds: number, maxSeconds: number): string[] {
  return checks.flatMap((c) => [
    ...(c.codec !== 'mp3' ? [`${c.kbps} kbps: codec ${c.codec}, not mp3`] : []),
    ...(Math.abs(c.measuredKbps - c.kbps) > c.kbps * 0.02
      ? [`${c.kbps} kbps: measured ${c.measuredKbps.toFixed(1)} kbps`]
      : []),
    ...(c.seconds < minSeconds || c.seconds > maxSeconds
      ? [
          `${c.kbps} kbps: ${c.seconds.toFixed(1)} s of audio, expected ${minSeconds.toFixed(1)}-${maxSeconds.toFixed(1)} s`,
        ]
      : []),
  ]);
}
