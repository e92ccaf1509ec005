// Lists the server test files whose database follows TEST_DATABASE_URL: those that read it themselves or
// import, directly or through other modules, a module that reads it (src/server/test/helpers.ts and its kin).
// CI runs these files a second time on the local PostgreSQL; the others would only repeat what the first run did.
// Usage: node scripts/database-tests.mjs [root]  (one path a line, relative to root)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const READS_DATABASE_URL = /\bTEST_DATABASE_URL\b/;
// import … from './x.js', export … from './x.js', import './x.js', await import('./x.js'); relative ones only.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The file a relative specifier names: TypeScript sources are imported with a .js suffix, or none. */
function resolve(fromFile, specifier) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const stem = base.replace(/\.(js|mjs|jsx)$/, '');
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mjs`, path.join(base, 'index.ts')])
    if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
  return undefined;
}

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

/** Server and common test files (the vitest project 'server') that reach TEST_DATABASE_URL, sorted. */
export function databaseTestFiles(root) {
  const memo = new Map();
  const reaches = (file, visiting) => {
    if (memo.has(file)) return memo.get(file);
    if (visiting.has(file)) return false;
    visiting.add(file);
    const text = readFileSync(file, 'utf8');
    let result = READS_DATABASE_URL.test(text);
    for (const [, specifier] of text.matchAll(IMPORT)) {
      if (result) break;
      const target = resolve(file, specifier);
      if (target && reaches(target, visiting)) result = true;
    }
    visiting.delete(file);
    memo.set(file, result);
    return result;
  };
  const tests = ['src/server', 'src/common']
    .map((dir) => path.join(root, dir))
    .filter((dir) => existsSync(dir))
    .flatMap((dir) => [...walk(dir)])
    .filter((file) => file.endsWith('.test.ts'));
  return tests
    .filter((file) => reaches(file, new Set()))
    .map((file) => path.relative(root, file))
    .sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? '.');
  const files = databaseTestFiles(root);
  if (files.length === 0) {
    console.error(`no test file under ${root} reads TEST_DATABASE_URL`);
    process.exit(1);
  }
  console.log(files.join('\n'));
}
