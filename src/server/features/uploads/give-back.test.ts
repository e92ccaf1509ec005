import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Turns } from './work-queue.js';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));

describe('heavy work hands freed memory back', () => {
  it('gives back what glibc kept free between live blocks after work like a picture decode', async () => {
    // A process set up as npm start sets it up: blocks under the mmap threshold, most freed, every twentieth
    // kept, so the heap's free memory lies between live blocks, where glibc never returns it by itself.
    const script = `
      import { readFileSync } from 'node:fs';
      import { giveMemoryBack } from ${JSON.stringify(path.join(here, 'give-back.ts'))};
      const heapKb = () => {
        const smaps = readFileSync('/proc/self/smaps', 'utf8').split(/\\n(?=[0-9a-f]+-)/);
        const heap = smaps.find((mapping) => mapping.includes('[heap]')) ?? '';
        return Number(/^Rss:\\s+(\\d+)/m.exec(heap)?.[1] ?? 0);
      };
      // All live at once, as while a picture decodes, so no collection can hand a block's memory to the next
      // one; then all but every twentieth freed, and time for V8 to free their memory off the main thread.
      let blocks = [];
      for (let i = 0; i < 1500; i++) blocks.push(Buffer.allocUnsafeSlow(100_000 + (i % 7) * 1000).fill(1));
      const kept = blocks.filter((_, i) => i % 20 === 0);
      blocks = [];
      for (let round = 0; round < 3; round++) {
        globalThis.gc();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const before = heapKb();
      await giveMemoryBack();
      console.log(JSON.stringify({ before, after: heapKb(), kept: kept.length }));
    `;
    const { stdout } = await run(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
      {
        env: {
          ...process.env,
          MALLOC_ARENA_MAX: '1',
          MALLOC_MMAP_THRESHOLD_: '262144',
          MALLOC_TRIM_THRESHOLD_: '1048576',
        },
      },
    );
    const { before, after } = JSON.parse(stdout) as { before: number; after: number };
    // About 45 MB of heap before and 17 MB after, here: 7.5 MB of it live.
    expect(before).toBeGreaterThan(30_000);
    expect(before - after).toBeGreaterThan(20_000);
  });

  it('tidies as each turn begins and ends and while it runs, and goes on if that fails', async () => {
    const events: string[] = [];
    let failing = true;
    const turns = new Turns(1, {
      everyMs: 40,
      run: async () => {
        events.push('tidy');
        if (failing) {
          failing = false;
          throw new Error('no libc here');
        }
      },
    });
    const work = (name: string, ms: number) => async () => {
      events.push(`${name} starts`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      events.push(`${name} ends`);
      return name;
    };
    expect(await Promise.all([turns.take(work('picture', 5)), turns.take(work('sermon', 100))])).toEqual([
      'picture',
      'sermon',
    ]);
    expect(events.slice(0, 6)).toEqual([
      'tidy',
      'picture starts',
      'picture ends',
      'tidy',
      'tidy',
      'sermon starts',
    ]);
    expect(events.at(-1)).toBe('tidy');
    expect(events.at(-2)).toBe('sermon ends');
    // The sermon's 100 ms turn was tidied during it too, and nothing after its end but the last.
    expect(events.slice(6, -2).filter((event) => event === 'tidy').length).toBeGreaterThanOrEqual(1);
    expect(events.slice(6, -2).every((event) => event === 'tidy')).toBe(true);
  });
});
