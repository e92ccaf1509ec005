// bench/uploads: bursts of picture and sermon uploads at once to the station as `npm start` runs it
// (embedded database); prints the resident memory of its whole process tree idle, at the peak of the bursts
// and after, against the 200 MB target (exit code 1 when the peak is over it), and what each upload was
// answered. Run by hand:
// node --import tsx bench/uploads/run.ts [--rounds N] [--images N] [--audio N] [--side PIXELS]
//                                        [--audio-minutes M]                          (see README.md)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { freePort } from '../../src/server/test/icecast-server';
import { BENCH_ADMIN, loadHomeAndAdmin, npmStart } from '../memory/station';
import { sampler, treeMemory, type TreeMemory } from '../memory/tree';
import { signIn } from '../staff';

const GOAL_MB = 200;
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    images: { type: 'string', default: '8' },
    audio: { type: 'string', default: '3' },
    side: { type: 'string', default: '6300' },
    'audio-minutes': { type: 'string', default: '10' },
  },
});
const rounds = Number(values.rounds);
const images = Number(values.images);
const audios = Number(values.audio);
const side = Number(values.side);

const work = mkdtempSync(join(tmpdir(), 'bench-uploads-'));
// A large picture close to the 5 MB limit: a gradient with grain, as a camera's large JPEG may be.
const pixels = Buffer.alloc(side * side * 3);
for (let i = 0; i < pixels.length; i++)
  pixels[i] = ((Math.floor(i / 3) % side) + (Math.imul(i, 2654435761) >>> 27)) % 256;
const jpeg = await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
  .jpeg({ quality: 62 })
  .toBuffer();
const mp3File = join(work, 'sermon.mp3');
execFileSync('ffmpeg', [
  ...[
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=220:duration=${Number(values['audio-minutes']) * 60}`,
  ],
  ...['-b:a', '128k', mp3File],
]);
const mp3 = readFileSync(mp3File);
console.log(
  `${rounds} rounds of ${images} pictures (${side} x ${side} JPEG, ${(jpeg.length / 1048576).toFixed(1)} MB)` +
    ` and ${audios} sermons (${values['audio-minutes']} min MP3, ${(mp3.length / 1048576).toFixed(1)} MB) at once`,
);

const dataDir = mkdtempSync(join(tmpdir(), 'station-uploads-bench-'));
const station = await npmStart({ DATA_DIR: dataDir, DATABASE_URL: '' }, await freePort());
try {
  await loadHomeAndAdmin(station.origin);
  const token = await signIn(station.origin, BENCH_ADMIN);
  const send = async (url: string, field: string, data: Buffer, type: string, name: string) => {
    const form = new FormData();
    form.append(field, new Blob([new Uint8Array(data)], { type }), name);
    const res = await fetch(`${station.origin}${url}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    await res.arrayBuffer();
    return res.status;
  };
  await sleep(10_000);
  const idle = treeMemory(station.child.pid!);
  const peak = sampler(station.child.pid!, 100);
  const answers = new Map<string, number>();
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    const statuses = await Promise.all([
      ...Array.from({ length: images }, () =>
        send('/api/upload-image', 'image', jpeg, 'image/jpeg', 'photo.jpg').then((s) => `picture ${s}`),
      ),
      ...Array.from({ length: audios }, () =>
        send('/api/upload-audio', 'audio', mp3, 'audio/mpeg', 'sermon.mp3').then((s) => `sermon ${s}`),
      ),
    ]);
    for (const status of statuses) answers.set(status, (answers.get(status) ?? 0) + 1);
  }
  const took = (performance.now() - started) / 1000;
  const max = peak.stop();
  await sleep(30_000);
  const after = treeMemory(station.child.pid!);
  const cell = (m: TreeMemory) => `${m.pssMb} / ${m.rssMb} MB`;
  console.log(
    `answers: ${[...answers].map(([what, n]) => `${n} x ${what}`).join(', ')} in ${took.toFixed(1)} s`,
  );
  console.log('whole npm start tree, proportional / plain RSS sum:');
  console.log(`  idle before      ${cell(idle)}`);
  console.log(`  peak of bursts   ${cell(max)}   (target: ${GOAL_MB} MB proportional)`);
  console.log(`  30 s after       ${cell(after)}`);
  console.log(
    max.pssMb <= GOAL_MB
      ? `peak ${max.pssMb} MB: within the ${GOAL_MB} MB target`
      : `peak ${max.pssMb} MB: OVER the ${GOAL_MB} MB target by ${max.pssMb - GOAL_MB} MB`,
  );
  if (max.pssMb > GOAL_MB) process.exitCode = 1;
} finally {
  await station.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}
