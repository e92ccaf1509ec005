// Marks a part of the build (client or server) as finished, or forgets that it was, so an interrupted
// build is noticed: `npm start` rebuilds a part whose mark is missing (scripts/start.mjs).
//   node scripts/built.mjs forget client   (first step of build:client)
//   node scripts/built.mjs client          (last step, once everything is written)
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';

const [first, second] = process.argv.slice(2);
const part = second ?? first;
if (!['client', 'server'].includes(part)) throw new Error(`usage: built.mjs [forget] client|server`);
const mark = `dist/.built-${part}`;
if (first === 'forget') rmSync(mark, { force: true });
else {
  mkdirSync('dist', { recursive: true });
  writeFileSync(mark, `${new Date().toISOString()}\n`);
}
