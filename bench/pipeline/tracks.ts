// The library both stations play: six tracks of tones, noise and envelopes, mastered from -8 to -26 LUFS
// in the formats staff upload (MP3 at 44.1 and 48 kHz, WAV, M4A, FLAC), made with ffmpeg.
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ffmpegPath } from '../../src/server/radio/ffmpeg';
import { ebur128 } from '../../src/server/radio/test-audio';

const run = promisify(execFile);

interface TrackPlan {
  file: string;
  title: string;
  seconds: number;
  sampleRate: number;
  channels: 1 | 2;
  lufs: number;
  /** An ffmpeg filter graph with no inputs, ending in one audio output. */
  graph: (seconds: number, rate: number) => string;
  codec: string[];
}

const PLANS: TrackPlan[] = [
  {
    file: '01-chorale.mp3',
    title: 'Chorale',
    seconds: 46,
    sampleRate: 44100,
    channels: 2,
    lufs: -12,
    // A chord that changes every 4 s over a little pink noise, swelling slowly.
    graph: (d, r) =>
      `aevalsrc=exprs='0.2*sin(2*PI*220*pow(2,floor(mod(t/4,3))/3)*t)+0.15*sin(2*PI*277.2*t)+0.12*sin(2*PI*329.6*t)':s=${r}:d=${d},` +
      `aformat=channel_layouts=stereo[tone];anoisesrc=color=pink:amplitude=0.05:r=${r}:d=${d},aformat=channel_layouts=stereo[noise];` +
      `[tone][noise]amix=inputs=2:normalize=0,tremolo=f=0.5:d=0.4`,
    codec: ['-c:a', 'libmp3lame', '-b:a', '192k'],
  },
  {
    file: '02-sermon.wav',
    title: 'Sermon',
    seconds: 42,
    sampleRate: 44100,
    channels: 1,
    lufs: -26,
    // Speech-like: band-limited noise in syllables, with pauses between phrases.
    graph: (d, r) =>
      `anoisesrc=color=brown:amplitude=0.6:r=${r}:d=${d},highpass=f=200,lowpass=f=3000,` +
      `volume='0.05+0.95*abs(sin(2*PI*2.5*t))*gt(sin(2*PI*0.3*t),-0.6)':eval=frame`,
    codec: ['-c:a', 'pcm_s16le'],
  },
  {
    file: '03-bells.mp3',
    title: 'Bells',
    seconds: 52,
    sampleRate: 48000,
    channels: 2,
    lufs: -14,
    // Struck bells every 1.5 s, decaying, a different partial on each side.
    graph: (d, r) =>
      `aevalsrc=exprs='exp(-3*mod(t,1.5))*(0.3*sin(2*PI*880*t)+0.2*sin(2*PI*1320*t))|exp(-3*mod(t,1.5))*(0.3*sin(2*PI*880*t)+0.1*sin(2*PI*2093*t))':s=${r}:d=${d}`,
    codec: ['-c:a', 'libmp3lame', '-b:a', '160k'],
  },
  {
    file: '04-pads.m4a',
    title: 'Pads',
    seconds: 58,
    sampleRate: 44100,
    channels: 2,
    lufs: -20,
    // Dark pink noise under a low tone, breathing in and out.
    graph: (d, r) =>
      `anoisesrc=color=pink:amplitude=0.4:r=${r}:d=${d},lowpass=f=600,aformat=channel_layouts=stereo[noise];` +
      `sine=f=110:r=${r}:d=${d},aformat=channel_layouts=stereo[tone];[noise][tone]amix=inputs=2:normalize=0,tremolo=f=0.2:d=0.7`,
    codec: ['-c:a', 'aac', '-b:a', '160k'],
  },
  {
    file: '05-drums.flac',
    title: 'Drums',
    seconds: 40,
    sampleRate: 48000,
    channels: 2,
    lufs: -8,
    // A kick on the beat, noise hats off it, a bass line and a noise bed: loud, mastered hard against the
    // limiter (its true peak goes over 0 dBTP, as such masters do).
    graph: (d, r) =>
      `aevalsrc=exprs='0.8*sin(2*PI*60*t)*exp(-20*mod(t,0.5))+0.3*(2*random(0)-1)*exp(-60*mod(t+0.25,0.5))+0.3*sin(2*PI*55*t)+0.15*sin(2*PI*110*t)+0.1*(2*random(1)-1)':s=${r}:d=${d},aformat=channel_layouts=stereo`,
    codec: ['-c:a', 'flac', '-sample_fmt', 's16'],
  },
  {
    file: '06-piano.mp3',
    title: 'Piano',
    seconds: 55,
    sampleRate: 44100,
    channels: 2,
    lufs: -23,
    // Notes of a scale every 0.75 s, each dying away.
    graph: (d, r) =>
      `aevalsrc=exprs='0.4*exp(-2*mod(t,0.75))*sin(2*PI*261.6*pow(2,floor(mod(t/0.75,8))/6)*t)':s=${r}:d=${d},aformat=channel_layouts=stereo`,
    codec: ['-c:a', 'libmp3lame', '-b:a', '128k'],
  },
];

export interface Track {
  path: string;
  title: string;
  /** What it is, for the report: 'MP3 48 kHz'. */
  format: string;
  seconds: number;
  /** Measured on the finished file (EBU R128 integrated loudness and true peak). */
  lufs: number;
  truePeak: number;
}

const ffmpeg = (args: string[]) => run(ffmpegPath(), ['-v', 'error', '-y', ...args]);

/** Renders one plan, turned up or down (and limited at -1 dBFS) until it measures within 0.3 LU of its level. */
async function master(plan: TrackPlan, dir: string): Promise<Track> {
  const raw = join(dir, `${plan.file}.raw.wav`);
  const mastered = join(dir, `${plan.file}.mastered.wav`);
  await ffmpeg([
    ...['-filter_complex', `${plan.graph(plan.seconds, plan.sampleRate)},aformat=sample_fmts=flt`],
    ...['-ac', String(plan.channels), '-c:a', 'pcm_f32le', raw],
  ]);
  let gain = plan.lufs - (await ebur128(raw)).lufs;
  for (let attempt = 0; attempt < 5; attempt++) {
    await ffmpeg([
      ...['-i', raw, '-af', `volume=${gain.toFixed(2)}dB,alimiter=limit=0.891:level=false`],
      ...['-c:a', 'pcm_f32le', mastered],
    ]);
    const off = plan.lufs - (await ebur128(mastered)).lufs;
    if (Math.abs(off) < 0.3) break;
    gain += off;
  }
  const path = join(dir, plan.file);
  await ffmpeg([
    ...['-i', mastered, ...plan.codec, '-ar', String(plan.sampleRate)],
    ...['-metadata', `title=${plan.title}`, '-metadata', 'artist=Pipeline Bench', path],
  ]);
  rmSync(raw);
  rmSync(mastered);
  const measured = await ebur128(path);
  const kind = plan.file.slice(plan.file.lastIndexOf('.') + 1).toUpperCase();
  return {
    path,
    title: plan.title,
    format: `${kind === 'M4A' ? 'M4A (AAC)' : kind} ${plan.sampleRate / 1000} kHz${plan.channels === 1 ? ' mono' : ''}`,
    seconds: plan.seconds,
    ...measured,
  };
}

/** Makes the library in `dir`, one track at a time (the machine is shared). */
export async function makeLibrary(dir: string): Promise<Track[]> {
  const tracks: Track[] = [];
  for (const plan of PLANS) tracks.push(await master(plan, dir));
  return tracks;
}
