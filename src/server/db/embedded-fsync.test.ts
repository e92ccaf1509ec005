import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded-postgres.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'station-fsync-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const WRITES = 20;

// Traces the database server's sync calls (strace, installed by .ci/run): PGlite did 20 writes and 0 syncs.
it(`syncs the WAL to disk for each of ${WRITES} acknowledged commits`, async () => {
  const server = await startEmbeddedPostgres({ dataDir });
  try {
    const postmaster = Number(
      readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    const strace = spawn('strace', ['-f', '-e', 'trace=fsync,fdatasync', '-p', String(postmaster)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let trace = '';
    await new Promise<void>((resolve, reject) => {
      strace.once('error', reject);
      strace.stderr.on('data', (chunk: Buffer) => {
        trace += chunk.toString();
        if (/attached/.test(trace)) resolve();
      });
    });
    // Connected once strace is attached: the backend forked for it is traced, and flushes the WAL at commit.
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query('create table acknowledged (id serial primary key, body text)');
    for (let i = 0; i < WRITES; i++)
      await client.query('insert into acknowledged (body) values ($1)', [`write ${i}`]);
    await client.end();
    const exited = new Promise((resolve) => strace.once('close', resolve));
    strace.kill('SIGINT');
    await exited;
    // Only the connection's backend is traced (the server's other processes predate strace): each of its
    // commits, the table's and the writes', waited for its own sync.
    const syncs = (trace.match(/\b(fdatasync|fsync)\(/g) ?? []).length;
    expect(syncs).toBeGreaterThanOrEqual(WRITES + 1);
  } finally {
    await server.stop();
  }
}, 60_000);
