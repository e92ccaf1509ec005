import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error a plain script without types
import { databaseTestFiles } from './database-tests.mjs';

let root: string;
const write = (file: string, text: string) => {
  const full = path.join(root, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
};
const files = (at: string) => databaseTestFiles(at) as string[];

afterEach(() => root && rmSync(root, { recursive: true, force: true }));

describe('the test files CI runs again on PostgreSQL', () => {
  it('takes those that reach TEST_DATABASE_URL through any chain of imports, and only those', () => {
    root = mkdtempSync(path.join(tmpdir(), 'database-tests-'));
    write('src/server/test/helpers.ts', 'export const url = () => process.env.TEST_DATABASE_URL;\n');
    write('src/server/test/app.ts', "export { url } from './helpers.js';\n");
    write('src/server/test/cycle-a.ts', "import './cycle-b.js';\n");
    write('src/server/test/cycle-b.ts', "import './cycle-a.js';\n");
    write('src/server/direct.test.ts', "import { url } from './test/helpers.js';\n");
    write('src/server/feature/indirect.test.ts', "import { url } from '../test/app.js';\n");
    write('src/server/feature/dynamic.test.ts', "const { url } = await import('../test/app');\n");
    write('src/server/own.test.ts', 'const server = process.env.TEST_DATABASE_URL;\n');
    write('src/common/shared.test.ts', "import { url } from '../server/test/app.js';\n");
    write('src/server/pure.test.ts', "import { it } from 'vitest';\nimport './test/cycle-a.js';\n");
    write('src/server/test/unused.ts', "import './helpers.js';\n");
    write('src/server/package.test.ts', "import pg from 'pg';\n");
    expect(files(root)).toEqual([
      'src/common/shared.test.ts',
      'src/server/direct.test.ts',
      'src/server/feature/dynamic.test.ts',
      'src/server/feature/indirect.test.ts',
      'src/server/own.test.ts',
    ]);
  });

  it("in this repository: the API tests and start-up, not the radio's pure parts", () => {
    root = '';
    const listed = files('.');
    expect(listed).toContain('src/server/start.test.ts');
    expect(listed).toContain('src/server/app.test.ts');
    expect(listed).not.toContain('src/server/radio/mp3-frames.test.ts');
    expect(listed).not.toContain('src/server/config.test.ts');
  });
});
