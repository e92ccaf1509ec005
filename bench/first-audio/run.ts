// From clicking play to the player's first 'playing' event, measured inside Chromium against the built
// server on loopback (node --import tsx bench/first-audio/run.ts [runs]). Prints every run, the median
// and the p90; fails when the median is over the 1 s target.
import { launchBrowser } from '../../e2e/browser';
import { startStation } from '../../e2e/station';

const RUNS = Number(process.argv[2] ?? process.env.RUNS ?? 15);
const TARGET_MEDIAN_MS = 1000;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const station = await startStation();
const browser = await launchBrowser();
const times: number[] = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    // A fresh context each time: no warm caches, no open stream from the previous run.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(station.url, { waitUntil: 'networkidle' });
    const button = page.getByRole('button', { name: 'Turn On' });
    await button.waitFor();
    // Both ends are taken in the page's own clock: the click as it reaches the button, and 'playing'.
    await page.evaluate(() => {
      const w = window as unknown as { __clickAt?: number; __playingAt?: number };
      const audio = document.querySelector('audio[data-station-player]')!;
      const button = document.querySelector('button[aria-pressed]')!;
      button.addEventListener('click', () => (w.__clickAt = performance.now()), {
        capture: true,
        once: true,
      });
      audio.addEventListener('playing', () => (w.__playingAt ??= performance.now()));
    });
    await button.click();
    await page.waitForFunction(
      () => (window as unknown as { __playingAt?: number }).__playingAt !== undefined,
      null,
      { timeout: 20_000 },
    );
    const ms = await page.evaluate(() => {
      const w = window as unknown as { __clickAt: number; __playingAt: number };
      return w.__playingAt - w.__clickAt;
    });
    times.push(ms);
    console.log(`run ${String(run).padStart(2)}: ${ms.toFixed(0)} ms`);
    await context.close();
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = percentile(sorted, 50);
  console.log(
    `first audio after play, ${RUNS} runs: median ${median.toFixed(0)} ms, p90 ${percentile(sorted, 90).toFixed(0)} ms`,
  );
  const met = median < TARGET_MEDIAN_MS;
  console.log(
    `Verdict: ${met ? 'met' : 'NOT met'} (median ${median.toFixed(0)} ms, target under ${TARGET_MEDIAN_MS} ms)`,
  );
  process.exitCode = met ? 0 : 1;
} finally {
  await browser.close();
  await station.stop();
}
