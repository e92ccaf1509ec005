import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FALLBACK_STATION, provideStation } from '../../../lib/station';
import { fakeStaffApi, type FakeRequest } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { CaptionsTab } from './captions-tab';

afterEach(() => {
  vi.unstubAllGlobals();
  provideStation(FALLBACK_STATION);
});

/** The station stores each line at stream second 942 (and 950), at these moments (UTC). */
const STORED = ['2026-03-01T13:05:09.000Z', '2026-03-01T13:05:30.000Z', '2026-03-01T13:06:02.000Z'];

function setUp() {
  let n = 0;
  const api = fakeStaffApi({
    'POST /api/subtitles': (r: FakeRequest) => {
      const body = r.body as { text: string; language: string; timestamp?: number };
      n += 1;
      return {
        status: 201,
        body: {
          timestamp: body.timestamp ?? 942 + (n - 1) * 8,
          createdAt: STORED[n - 1],
          lines: [{ id: `s${n}`, language: body.language, translatedText: body.text }],
        },
      };
    },
  });
  const user = userEvent.setup({ delay: null });
  renderWithProviders(<CaptionsTab />);
  return { api, user };
}

describe('Captions tab: the Sent list', () => {
  it("shows when each line went out as the time of day in the station's time zone, not a stream-clock second", async () => {
    provideStation({ ...FALLBACK_STATION, timeZone: 'Africa/Lagos' }); // UTC+1
    const { user } = setUp();
    await user.type(screen.getByLabelText(/^(Line|Corrected line)$/), 'Grace and peace to you');
    await user.click(screen.getByRole('button', { name: 'Send line' }));
    const sent = await screen.findByTestId('captions-sent');
    const first = await within(sent).findByText('Grace and peace to you');
    expect(first.closest('li')).toHaveTextContent('14:05:09 · English');
    expect(sent).not.toHaveTextContent('942s');
    expect(within(sent).getByText('14:05:09')).toHaveAttribute('datetime', STORED[0]);

    await user.type(screen.getByLabelText(/^(Line|Corrected line)$/), 'from the Father');
    await user.click(screen.getByRole('button', { name: 'Send line' }));
    const second = await within(sent).findByText('from the Father');
    expect(second.closest('li')).toHaveTextContent('14:05:30 · English');
  });

  it('keeps the time of the line a correction replaces', async () => {
    const { api, user } = setUp();
    await user.type(screen.getByLabelText(/^(Line|Corrected line)$/), 'Grace and piece');
    await user.click(screen.getByRole('button', { name: 'Send line' }));
    const sent = await screen.findByTestId('captions-sent');
    await within(sent).findByText('Grace and piece');
    await user.click(screen.getByRole('button', { name: 'Correct last line' }));
    const box = screen.getByLabelText(/^(Line|Corrected line)$/);
    await user.clear(box);
    await user.type(box, 'Grace and peace');
    await user.click(screen.getByRole('button', { name: 'Send correction' }));
    const corrected = await within(sent).findByText('Grace and peace');
    expect(corrected.closest('li')).toHaveTextContent('13:05:09 · English');
    expect(api.calls('POST', '/api/subtitles')[1]!.body).toMatchObject({ replaces: ['s1'], timestamp: 942 });
  });
});
