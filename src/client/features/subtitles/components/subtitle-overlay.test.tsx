import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SUBTITLE_SETTING_KEYS, type SubtitleEntry } from '../../../../common/subtitles';
import { getPlayer } from '../../player';
import { createQueryClient } from '../../../lib/query-client';
import { sendJson, startTestServer } from '../../../test/http-server';
import { SubtitleOverlay } from './subtitle-overlay';

// The station's test transmission has lines in these; the first alphabetically is German.
const AVAILABLE = ['de', 'en', 'es', 'fr', 'pt', 'ru', 'zh'];
let english: SubtitleEntry[] = [];
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    if (req.url === '/api/subtitles/languages') return void sendJson(res, 200, AVAILABLE);
    if (req.url === '/api/subtitles/en') return void sendJson(res, 200, english);
    if (req.url.startsWith('/api/subtitles/')) return void sendJson(res, 200, []);
    sendJson(res, 404, { message: 'Not found' });
  });
});
afterAll(() => server.close());
beforeEach(() => localStorage.clear());
afterEach(() => {
  english = [];
  getPlayer().clock.reset();
  vi.restoreAllMocks();
  server.reset();
});

function browserSpeaks(...languages: string[]) {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  vi.spyOn(navigator, 'language', 'get').mockReturnValue(languages[0] ?? '');
}

async function openPicker() {
  server.routeFetch();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SubtitleOverlay />
    </QueryClientProvider>,
  );
  await userEvent.click(screen.getByRole('button', { name: 'Subtitle settings' }));
  const picker = screen.getByLabelText('Language');
  // The languages have arrived once the choice is made.
  await vi.waitFor(() => expect(picker).not.toHaveValue(''));
  return picker as HTMLSelectElement;
}

describe('SubtitleOverlay language', () => {
  it("picks the browser's language for a new listener", async () => {
    browserSpeaks('es-ES', 'es');
    const picker = await openPicker();
    expect(picker).toHaveValue('es');
    expect(await screen.findByText('No subtitles available in Spanish')).toBeInTheDocument();
  });

  it("falls back to the station's language, English, when the browser's has no lines", async () => {
    browserSpeaks('it-IT', 'it');
    const picker = await openPicker();
    expect(picker).toHaveValue('en');
    expect(within(picker).getByRole('option', { selected: true })).toHaveTextContent(/^English$/);
  });

  it('keeps a saved choice over the browser language', async () => {
    localStorage.setItem(SUBTITLE_SETTING_KEYS.language, 'fr');
    browserSpeaks('es-ES');
    expect(await openPicker()).toHaveValue('fr');
  });

  it('names every language in the picker, English included', async () => {
    browserSpeaks('en-GB');
    const picker = await openPicker();
    const names = within(picker)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(names).toContain('English');
    expect(names).toContain('German');
    expect(names.filter((n) => n === n?.toUpperCase())).toEqual([]);
  });
});

describe('SubtitleOverlay lines recognised from speech', () => {
  /** The overlay in English while the listener hears stream second 100. */
  async function hearing(lines: SubtitleEntry[]) {
    english = lines;
    localStorage.setItem(SUBTITLE_SETTING_KEYS.language, 'en');
    server.routeFetch();
    getPlayer().clock.heardAt(100, 0);
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SubtitleOverlay />
      </QueryClientProvider>,
    );
    return screen.findByTestId('subtitle-line');
  }

  it('marks an automatic line as auto-generated, outside the announced line', async () => {
    const line = await hearing([
      { id: 'a', timestamp: 98, translatedText: 'The Lord is my shepherd', confidence: 95, automatic: true },
    ]);
    expect(line).toHaveTextContent(/^The Lord is my shepherd$/);
    const mark = screen.getByTestId('subtitle-automatic');
    expect(mark).toHaveTextContent(
      'Auto-generated captions: recognised from speech by a machine, they may contain mistakes',
    );
    // Said once when reached, not before every line.
    expect(mark.closest('[aria-live]')).toBeNull();
    expect(line.closest('[aria-live]')).not.toBeNull();
  });

  it('shows no mark on a line a captioner typed or corrected', async () => {
    await hearing([{ id: 'b', timestamp: 99, translatedText: 'He restores my soul', confidence: 95 }]);
    expect(screen.getByTestId('subtitle-line')).toHaveTextContent('He restores my soul');
    expect(screen.queryByTestId('subtitle-automatic')).toBeNull();
  });
});
