import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FALLBACK_STATION, provideStation } from '../../../lib/station';
import { fakeStaffApi, type FakeRequest } from '../../../test/fake-staff-api';
import { FakeSocket } from '../../../test/fake-socket';
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

describe('Captions tab: automatic lines', () => {
  it('marks lines recognised from speech as auto-generated, and a corrected one as corrected', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    FakeSocket.all = [];
    const { api, user } = setUp();
    await vi.waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    const socket = FakeSocket.latest();
    socket.open();
    const push = (entry: object) => socket.deliver({ type: 'subtitle', data: { language: 'en', entry } });
    push({
      id: 'r1',
      timestamp: 120,
      translatedText: 'Blessed are the meek',
      confidence: 95,
      automatic: true,
    });
    push({
      id: 'r2',
      timestamp: 123,
      translatedText: 'for they shall inherit',
      confidence: 95,
      automatic: true,
    });
    const list = await screen.findByTestId('captions-automatic');
    const meek = (await within(list).findByText('Blessed are the meek')).closest('li')!;
    expect(meek).toHaveTextContent(/^Auto-generated, not yet checked\s*stream second 120s/);
    expect(within(list).getAllByText('Auto-generated')).toHaveLength(2);

    await user.click(within(meek).getByRole('button', { name: 'Correct: Blessed are the meek' }));
    expect(api.calls('POST', '/api/subtitles')).toHaveLength(0);
    const box = screen.getByLabelText('Corrected line');
    await user.clear(box);
    await user.type(box, 'Blessed are the meek, for they shall inherit the earth');
    await user.click(screen.getByRole('button', { name: 'Send correction' }));
    await vi.waitFor(() => expect(api.calls('POST', '/api/subtitles')).toHaveLength(1));
    expect(api.calls('POST', '/api/subtitles')[0]!.body).toMatchObject({ replaces: ['r1'], timestamp: 120 });
    // The station pushes the correction (typed, so not automatic) at the same second.
    push({
      id: 's9',
      timestamp: 120,
      translatedText: 'Blessed are the meek, for they shall inherit the earth',
      confidence: 95,
    });
    const fixed = (await within(list).findByText(/inherit the earth$/)).closest('li')!;
    expect(fixed).toHaveTextContent(/^Corrected/);
    expect(within(list).getAllByText('Auto-generated')).toHaveLength(1);
  });
});
