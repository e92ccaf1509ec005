import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, showSection, visit } from './browser';
import { ownBrowserAndStation } from './station';

const SHOTS = process.env.E2E_SCREENSHOTS;
// A station of its own: the chat messages sent here would otherwise be in other specs' chat history.
const own = ownBrowserAndStation();

/** A listener's page with subtitles turned on and these settings saved before the station's script runs. */
async function withCaptions(options: BrowserContextOptions, saved: Record<string, string> = {}) {
  const opened = await openPage(own.browser, options);
  await opened.context.addInitScript((settings) => {
    if (sessionStorage.getItem('seeded')) return;
    sessionStorage.setItem('seeded', '1');
    localStorage.setItem('subtitles-enabled', 'true');
    for (const [key, value] of Object.entries(settings)) localStorage.setItem(key, value);
  }, saved);
  await visit(opened.page, own.station.url);
  return opened;
}

describe('the chat card in Chromium', () => {
  it('keeps a message at 500 characters with a countdown, puts a refused message back, and names its counts', async () => {
    const { page, context, problems } = await openPage(own.browser, {
      viewport: { width: 1280, height: 900 },
    });
    await visit(page, own.station.url);
    const community = await showSection(page, 'community');
    await page.getByText('Connected', { exact: true }).waitFor({ timeout: 15_000 });
    const box = page.getByRole('textbox', { name: 'Message' });

    await box.click();
    await page.keyboard.insertText('Grace and peace. '.repeat(40)); // 680 characters
    expect((await box.inputValue()).length).toBe(500);
    await page.getByText('0 characters left', { exact: true }).waitFor();
    await box.press('Backspace');
    await page.getByText('1 character left', { exact: true }).waitFor();
    const long = await box.inputValue();
    await box.press('Enter');
    await page.getByLabel('Chat messages').getByText(long.trim()).waitFor();
    expect(await page.getByTestId('chat-message-left').count()).toBe(0);

    // Sending faster than the station allows: the refused message comes back into the box.
    const list = page.getByLabel('Chat messages');
    const refusal = page.getByRole('alert').filter({ hasText: 'You are sending messages too quickly' });
    let refused: string | undefined;
    for (let n = 1; n <= 5 && !refused; n++) {
      const text = `Amen ${n}`;
      await box.fill(text);
      await box.press('Enter');
      await list.getByText(`Anonymous: ${text}`).or(refusal).first().waitFor();
      if (await refusal.isVisible()) refused = text;
    }
    expect(refused).toBeDefined();
    await expect.poll(() => box.inputValue()).toBe(refused);

    // Each figure says what it counts; a second page with the chat open counts as online.
    const other = await openPage(own.browser, { viewport: { width: 1280, height: 900 } });
    await visit(other.page, own.station.url);
    await showSection(other.page, 'community');
    await other.page.getByText('Connected', { exact: true }).waitFor({ timeout: 15_000 });
    await page
      .getByTestId('online-count')
      .getByText('2 online', { exact: true })
      .waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('listener-count').textContent()).toMatch(/^\d+ listening to the stream$/);
    await box.fill('Peace be with you. '.repeat(22));
    await page.getByText('82 characters left', { exact: true }).waitFor();
    if (SHOTS) await community.screenshot({ path: `${SHOTS}/chat-card.png` });

    expect(problems).toEqual([]);
    expect(other.problems).toEqual([]);
    await other.context.close();
    await context.close();
  });
});

describe("a new listener's caption language", () => {
  const chosen = async (page: Page) => {
    await page.getByRole('button', { name: 'Subtitle settings' }).click();
    const picker = page.getByLabel('Language');
    // The languages with lines arrive from the station; the choice is made once they have.
    await expect.poll(() => picker.inputValue(), { timeout: 30_000 }).not.toBe('');
    const value = await picker.inputValue();
    const name = await picker.locator('option:checked').textContent();
    return { value, name };
  };

  it.each([
    ['es-ES', 'es', 'Spanish'],
    ['it-IT', 'en', 'English'],
  ])('a browser in %s reads %s (%s)', async (locale, code, name) => {
    const { page, context, problems } = await withCaptions({ locale });
    expect(await chosen(page)).toEqual({ value: code, name });
    const options = await page.getByLabel('Language').locator('option').allTextContents();
    expect(options).toContain('English');
    expect(options.filter((o) => o === o.toUpperCase())).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a saved choice wins over the browser language', async () => {
    const { page, context, problems } = await withCaptions(
      { locale: 'es-ES' },
      { 'subtitles-language': 'fr' },
    );
    expect(await chosen(page)).toEqual({ value: 'fr', name: 'French' });
    expect(problems).toEqual([]);
    await context.close();
  });
});

interface Box {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Everything a listener needs at the top of the page, and the caption line and settings pill, in one look. */
function measure(page: Page) {
  return page.evaluate(() => {
    const box = (name: string, el: Element | null | undefined) => {
      const r = el?.getBoundingClientRect();
      return r && r.width > 2 && r.height > 2
        ? { name, x: r.x, y: r.y, width: r.width, height: r.height }
        : null;
    };
    const player = document.querySelector('section[aria-label="Live player"]');
    const needed = [
      ...[...document.querySelectorAll('header a, header button')].map((el) =>
        box(`header: ${el.textContent?.trim() || el.getAttribute('aria-label')}`, el),
      ),
      box(
        'Live Now badge',
        [...(player?.querySelectorAll('span') ?? [])].find((s) => s.textContent?.trim() === 'Live Now'),
      ),
      box('connection badge', player?.querySelector('[role="status"]')),
    ].filter((b) => b !== null);
    const captions = [
      box('caption line', document.querySelector('[data-testid="subtitle-line"]')),
      box(
        'settings pill',
        [...document.querySelectorAll('button')].find((b) => b.textContent?.includes('Subtitle settings')),
      ),
    ];
    return { needed, captions };
  });
}

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('captions clear of the header and the player badges', () => {
  it.each([
    [1280, 800, 'top'],
    [1280, 800, 'bottom'],
    [390, 844, 'top'],
    [390, 844, 'bottom'],
  ])(
    'at %ix%i with captions at the %s',
    async (width, height, position) => {
      const { page, context, problems } = await withCaptions(
        { viewport: { width, height } },
        { 'subtitles-language': 'en', 'subtitles-position': position, 'subtitles-font-size': 'large' },
      );
      await page.getByRole('button', { name: 'Turn On' }).click();
      await page.getByRole('button', { name: 'Turn Off' }).waitFor({ timeout: 15_000 });
      await page.getByTestId('subtitle-line').waitFor({ timeout: 30_000 });

      const check = async (shot: string) => {
        // A line lasts a few seconds: look again if it ended between the wait and the look.
        let seen = await measure(page);
        while (seen.captions.some((b) => b === null)) {
          await page.getByTestId('subtitle-line').waitFor({ timeout: 30_000 });
          seen = await measure(page);
        }
        const { needed, captions } = seen;
        if (SHOTS) await page.screenshot({ path: `${SHOTS}/captions-${width}-${position}${shot}.png` });
        expect(needed.map((b) => b.name)).toEqual(
          expect.arrayContaining(['Live Now badge', 'connection badge']),
        );
        expect(
          captions.every((b) => b !== null),
          'caption line and pill on screen',
        ).toBe(true);
        const covered = captions.flatMap((c) =>
          needed.filter((n) => overlap(c!, n)).map((n) => `${c!.name} over ${n.name}`),
        );
        expect(covered).toEqual([]);
      };
      await check('');
      if (width < 768) {
        // On a phone the header's links are in its menu: open, they are clear too.
        await page.getByRole('button', { name: 'Open menu' }).click();
        await page.getByRole('navigation', { name: 'Mobile' }).waitFor();
        await page.getByTestId('subtitle-line').waitFor({ timeout: 30_000 });
        await check('-menu');
      }
      if (position === 'top' && width >= 768) {
        // A jump to a section from the header stops below the captions' band, not under it.
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Programs' }).click();
        const gap = () =>
          page.evaluate(() => {
            const band = document.querySelector('[data-testid="subtitle-overlay"]')!.getBoundingClientRect();
            return document.querySelector('#programs h2')!.getBoundingClientRect().top - band.bottom;
          });
        // The scroll is smooth: wait until it has come near the top and stopped.
        let last = Number.NaN;
        await expect
          .poll(
            async () => {
              const now = await gap();
              const settled = now === last && now < 150;
              last = now;
              return settled;
            },
            { timeout: 10_000, interval: 150 },
          )
          .toBe(true);
        expect(last).toBeGreaterThanOrEqual(0);
        if (SHOTS) await page.screenshot({ path: `${SHOTS}/captions-${width}-top-programs.png` });
      }
      if (position === 'bottom') {
        // At the page's end the captions take their own room: the footer's links are not under them.
        await showSection(page, 'footer');
        await page.evaluate(() =>
          window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }),
        );
        const look = () =>
          page.evaluate(() => {
            // At the very end, as the line may have grown the page since the last scroll.
            window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
            const line = document.querySelector('[data-testid="subtitle-line"]')?.getBoundingClientRect();
            const pill = [...document.querySelectorAll('button')]
              .find((b) => b.textContent?.includes('Subtitle settings'))!
              .getBoundingClientRect();
            const links = [...document.querySelectorAll('footer a')].map((a) => a.getBoundingClientRect());
            return {
              captionsTop: line ? Math.min(line.top, pill.top) : null,
              lowestLink: Math.max(...links.map((l) => l.bottom)),
            };
          });
        let clear = await look();
        while (clear.captionsTop === null) {
          await page.getByTestId('subtitle-line').waitFor({ timeout: 30_000 });
          clear = await look();
        }
        if (SHOTS) await page.screenshot({ path: `${SHOTS}/captions-${width}-${position}-end.png` });
        expect(clear.lowestLink).toBeLessThanOrEqual(clear.captionsTop);
      }
      expect(problems).toEqual([]);
      await context.close();
    },
    90_000,
  );
});
