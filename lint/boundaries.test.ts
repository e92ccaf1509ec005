import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cruise, type IConfiguration } from 'dependency-cruiser';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

// The lint run is the guard of the rooms: these fixtures are what it must refuse, linted as if they
// stood at the given path in the tree, against the project's own configuration.
const eslint = new ESLint({ cwd: process.cwd() });

async function boundaryErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('import boundaries', () => {
  it.each([
    [
      "a client feature importing another feature's internal file",
      'src/client/features/recorder/fixture.ts',
      "import { AudioPlayer } from '../player/audio-player';\nexport const x = AudioPlayer;\n",
    ],
    [
      'a component importing a feature',
      'src/client/components/fixture.ts',
      "import * as player from '../features/player';\nexport const x = player;\n",
    ],
    [
      'lib importing a feature',
      'src/client/lib/fixture.ts',
      "import * as player from '../features/player';\nexport const x = player;\n",
    ],
    [
      'the radio engine importing the database',
      'src/server/radio/fixture.ts',
      "import { settings } from '../db/schema.js';\nexport const x = settings;\n",
    ],
    [
      "a server feature importing another feature's repository",
      'src/server/features/clips/fixture.ts',
      "import * as repo from '../accounts/repository.js';\nexport const x = repo;\n",
    ],
    [
      'a plugin importing a feature',
      'src/server/plugins/fixture.ts',
      "import * as accounts from '../features/accounts/service.js';\nexport const x = accounts;\n",
    ],
  ])('refuses %s', async (_name, filePath, code) => {
    expect(await boundaryErrors(filePath, code)).toHaveLength(1);
  });

  it.each([
    [
      "a client feature through another feature's index.ts",
      'src/client/features/recorder/fixture.ts',
      "import * as player from '../player';\nexport const x = player;\n",
    ],
    [
      "a server feature through another feature's service.ts",
      'src/server/features/clips/fixture.ts',
      "import * as accounts from '../accounts/service.js';\nexport const x = accounts;\n",
    ],
    [
      'a page composed in app/ from features',
      'src/client/app/fixture.ts',
      "import * as player from '../features/player';\nexport const x = player;\n",
    ],
  ])('allows %s', async (_name, filePath, code) => {
    expect(await boundaryErrors(filePath, code)).toEqual([]);
  });
});

describe('import cycles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cycle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails a cycle made of type-only imports', async () => {
    writeFileSync(
      join(dir, 'tabs.ts'),
      "import type { Row } from './row';\nexport type Tab = { rows: Row[] };\n",
    );
    writeFileSync(
      join(dir, 'row.ts'),
      "import type { Tab } from './tabs';\nexport type Row = { tab: Tab };\n",
    );
    const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs') as IConfiguration;
    const result = await cruise([dir], {
      validate: true,
      ruleSet: { forbidden: config.forbidden },
      tsPreCompilationDeps: true,
    });
    const output = typeof result.output === 'string' ? JSON.parse(result.output) : result.output;
    expect(output.summary.violations.map((v: { rule: { name: string } }) => v.rule.name)).toContain(
      'no-circular',
    );
  });
});
