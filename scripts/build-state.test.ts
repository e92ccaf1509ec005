import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error a plain script without types
import { partsToBuild } from './build-state.mjs';

let root: string;
const write = (file: string, at: number) => {
  const full = path.join(root, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, '');
  utimesSync(full, at / 1000, at / 1000);
};
const toBuild = () => (partsToBuild(root) as { part: string }[]).map(({ part }) => part);

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('what npm start builds', () => {
  const before = Date.now() - 60_000;
  const after = Date.now();
  it.each([
    ['a clean clone: everything', [], ['client', 'server']],
    [
      'a client build stopped half-way (its files, no mark): the client again',
      ['dist/client/index.html', 'dist/server/main.js', 'dist/.built-server'],
      ['client'],
    ],
    ['both finished after the code last changed: nothing', ['dist/.built-client', 'dist/.built-server'], []],
  ])('%s', (_name, built: string[], expected: string[]) => {
    root = mkdtempSync(path.join(tmpdir(), 'build-state-'));
    for (const file of ['src/client/main.tsx', 'src/server/main.ts', 'src/common/x.ts']) write(file, before);
    for (const file of built) write(file, after);
    expect(toBuild()).toEqual(expected);
  });

  it('rebuilds a part whose code changed after its build (a pull, an edit)', () => {
    root = mkdtempSync(path.join(tmpdir(), 'build-state-'));
    write('dist/.built-client', before);
    write('dist/.built-server', before);
    write('src/common/contract.ts', after);
    expect(toBuild()).toEqual(['client', 'server']);
  });
});
