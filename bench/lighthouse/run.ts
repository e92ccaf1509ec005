// bench/lighthouse: Lighthouse's mobile run (its default: a mid-range phone on slow 4G, simulated) on the built
// station as `npm start` serves it, three times; prints each run and the median of the four scores and TBT.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS } from '../../e2e/browser';
import { freePort } from '../../src/server/test/icecast-server';
import { npmStart } from '../memory/station';

const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? 3);
const PAGE = process.argv.find((a) => a.startsWith('--path='))?.slice(7) ?? '/';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const TARGET_PERFORMANCE = 95;

interface Run {
  scores: Record<(typeof CATEGORIES)[number], number>;
  tbtMs: number;
  fcpMs: number;
  lcpMs: number;
  cls: number;
  failing: string[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function audit(url: string): Promise<Run> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    chromeFlags: CHROMIUM_ARGS,
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
    });
    const lhr = result!.lhr;
    if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const failing = Object.values(lhr.categories)
      .filter((c) => c.id !== 'performance')
      .flatMap((c) => c.auditRefs.filter((r) => r.weight > 0).map((r) => lhr.audits[r.id]!))
      .filter((a) => a.score !== null && a.score < 1)
      .map((a) => `${a.id}: ${a.title}`);
    return {
      scores: {
        performance: score('performance'),
        accessibility: score('accessibility'),
        'best-practices': score('best-practices'),
        seo: score('seo'),
      },
      tbtMs: numeric('total-blocking-time'),
      fcpMs: numeric('first-contentful-paint'),
      lcpMs: numeric('largest-contentful-paint'),
      cls: numeric('cumulative-layout-shift'),
      failing,
    };
  } finally {
    await chrome.kill();
  }
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-lighthouse-'));
const port = await freePort();
const station = await npmStart({ DATA_DIR: dataDir }, port);
try {
  const url = `${station.origin}${PAGE}`;
  // One visit first, so the measured runs see a station that has started (AutoDJ on the air, caches warm).
  await (await fetch(url)).text();
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await audit(url);
    runs.push(run);
    console.log(
      `run ${i + 1}: performance ${run.scores.performance}, accessibility ${run.scores.accessibility}, ` +
        `best practices ${run.scores['best-practices']}, SEO ${run.scores.seo}; TBT ${Math.round(run.tbtMs)} ms, ` +
        `FCP ${Math.round(run.fcpMs)} ms, LCP ${Math.round(run.lcpMs)} ms, CLS ${run.cls.toFixed(3)}`,
    );
  }
  const m = (pick: (r: Run) => number) => median(runs.map(pick));
  console.log(`\nLighthouse mobile, ${url}, median of ${RUNS}:`);
  console.log(`  performance     ${m((r) => r.scores.performance)}   (target ${TARGET_PERFORMANCE} or more)`);
  console.log(`  accessibility   ${m((r) => r.scores.accessibility)}   (target 100)`);
  console.log(`  best practices  ${m((r) => r.scores['best-practices'])}   (target 100)`);
  console.log(`  SEO             ${m((r) => r.scores.seo)}   (target 100)`);
  console.log(`  total blocking time ${Math.round(m((r) => r.tbtMs))} ms   (target under 200 ms)`);
  console.log(
    `  first contentful paint ${Math.round(m((r) => r.fcpMs))} ms, largest ${Math.round(m((r) => r.lcpMs))} ms`,
  );
  const failing = [...new Set(runs.flatMap((r) => r.failing))];
  if (failing.length > 0) console.log(`  audits short of full marks: ${failing.join('; ')}`);
} finally {
  await station.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
