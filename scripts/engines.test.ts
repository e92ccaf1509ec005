import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/** The Node version README.md tells a new user to have ("Node.js 20.19 or later"). */
function readmeNode(): string {
  const match = /Node\.js (\d+\.\d+) or later/.exec(readFileSync('README.md', 'utf8'));
  if (!match) throw new Error('README.md names no "Node.js X.Y or later"');
  return `${match[1]}.0`;
}

/** Every package.json under node_modules, nested ones included (a package may carry its own copies). */
function* installedPackages(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === '.bin' || entry.name === '.cache') continue;
    const full = path.join(dir, entry.name);
    if (entry.name.startsWith('@')) {
      yield* installedPackages(full);
      continue;
    }
    yield path.join(full, 'package.json');
    const nested = path.join(full, 'node_modules');
    try {
      yield* installedPackages(nested);
    } catch {
      // no nested node_modules
    }
  }
}

describe('the Node version README.md names', () => {
  it('is what package.json requires', () => {
    const required = JSON.parse(readFileSync('package.json', 'utf8')).engines.node as string;
    expect(semver.minVersion(required)?.version).toBe(readmeNode());
  });

  it('is accepted by every installed package', () => {
    const node = readmeNode();
    const refused: string[] = [];
    for (const file of installedPackages('node_modules')) {
      let manifest: { name?: string; version?: string; engines?: { node?: string } };
      try {
        manifest = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        continue; // a folder that is not a package
      }
      const wanted = manifest.engines?.node;
      if (wanted && semver.validRange(wanted) && !semver.satisfies(node, wanted))
        refused.push(`${manifest.name}@${manifest.version} needs node ${wanted}`);
    }
    expect(refused).toEqual([]);
  });
});
