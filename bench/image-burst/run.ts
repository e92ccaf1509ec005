// bench/image-burst: six large pictures uploaded at once to the station as `npm start` runs it; prints the
// resident memory of its process tree idle, at the peak of the burst, and 30 s after (issue: hardening,
// fault 6). Run by hand: node --import tsx bench/image-burst/run.ts [--uploads N] [--side PIXELS]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { freePort } from '../../src/server/test/icecast-server';
import { BENCH_ADMIN, loadHomeAndAdmin, npmStart } from '../memory/station';
import { sampler, treeMemory, type TreeMemory } from '../memory/tree';
import { signIn } from '../staff';

const { values } = parseArgs({
  options: { uploads: { type: 'string', default: '6' }, side: { type: 'string', default: '6300' } },
});
const uploads = Number(values.uploads);
const side = Number(values.side);

// A large, smooth picture (under the 5 MB upload limit, as a camera's large JPEG may be).
const noise = Buffer.alloc(side * side * 3);
for (let i = 0; i < noise.length; i++) noise[i] = (Math.floor(i / 3) % side) % 256;
const jpeg = await sharp(noise, { raw: { width: side, height: side, channels: 3 } })
  .jpeg({ quality: 80 })
  .toBuffer();
console.log(
  `picture: ${side} x ${side} JPEG, ${(jpeg.length / 1048576).toFixed(1)} MB; ${uploads} uploads at once`,
);

const dataDir = mkdtempSync(join(tmpdir(), 'station-images-'));
const station = await npmStart({ DATA_DIR: dataDir, DATABASE_URL: '' }, await freePort());
try {
  await loadHomeAndAdmin(station.origin);
  const token = await signIn(station.origin, BENCH_ADMIN);
  await sleep(10_000);
  const idle = treeMemory(station.child.pid!);
  const peak = sampler(station.child.pid!, 100);
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: uploads }, async () => {
      const form = new FormData();
      form.append('image', new Blob([jpeg], { type: 'image/jpeg' }), 'photo.jpg');
      const res = await fetch(`${station.origin}/api/upload-image`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      return res.status;
    }),
  );
  const took = (performance.now() - started) / 1000;
  await sleep(30_000);
  const max = peak.stop();
  const after = treeMemory(station.child.pid!);
  const cell = (m: TreeMemory) => `${m.pssMb} / ${m.rssMb} MB`;
  console.log(`answers: ${statuses.join(', ')} in ${took.toFixed(1)} s`);
  console.log('whole npm start tree, proportional / plain RSS sum:');
  console.log(`  idle before     ${cell(idle)}`);
  console.log(`  peak of burst   ${cell(max)}`);
  console.log(`  30 s after      ${cell(after)}`);
  console.log('reference (issue, before the queue): 538 MB idle, 784 MB after, never given back; 4-5 s');
} finally {
  await station.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
