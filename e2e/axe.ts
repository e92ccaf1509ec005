import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults } from 'axe-core';

// axe-core's browser build, run in the page through the DevTools protocol: the station's
// Content-Security-Policy refuses an injected <script>, and the page is checked as a visitor gets it.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type Axe = { run: (context: Document | string) => Promise<AxeResults> };

/**
 * Every axe-core violation on the page as it is now, one line each (rule, impact, where, why): in the
 * whole page, or only inside the elements `within` selects (quicker where the rest was checked already).
 */
export async function axeViolations(page: Page, within?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    (selector) => (window as unknown as { axe: Axe }).axe.run(selector ?? document),
    within,
  );
  return results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact}) at ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ')}`,
    ),
  );
}
