import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LicenceCheck, ListenerReport } from '../../../../common/reports';
import { admin, fakeStaffApi, presenter } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { ReportsTab } from './reports-tab';

afterEach(() => vi.unstubAllGlobals());

const PERIOD = 'from=2026-03-01&to=2026-03-31';
const check: LicenceCheck = {
  format: 'soundexchange',
  plays: 120,
  missing: [
    { mediaId: 'm1', title: 'Untagged Song', artist: 'Band', plays: 4, missing: ['isrc_or_album_and_label'] },
  ],
};
const report: ListenerReport = {
  from: '2026-03-01',
  to: '2026-03-31',
  timeZone: 'UTC',
  bucketMinutes: 60,
  overTime: [{ at: '2026-03-01T00:00:00.000Z', average: 1.5, peak: 3 }],
  peak: 3,
  average: 1.5,
  listeningHours: 1116,
  sessions: 42,
  sessionLengths: [{ label: 'Under 5 minutes', sessions: 2 }],
  programmes: [{ programme: 'Morning Praise', programmeId: 'p1', average: 2.5, peak: 3, hours: 20 }],
  bitrates: [{ kbps: 128, sessions: 40, hours: 1000 }],
  countries: null,
  players: [{ player: 'browser', sessions: 42, hours: 1116 }],
};

async function showMarch() {
  const user = userEvent.setup({ delay: null });
  renderWithProviders(<ReportsTab user={admin} />);
  const form = screen.getByRole('form', { name: 'Report period' });
  const from = within(form).getByLabelText('From');
  const to = within(form).getByLabelText('To');
  await user.clear(from);
  await user.type(from, '2026-03-01');
  await user.clear(to);
  await user.type(to, '2026-03-31');
  await user.click(within(form).getByRole('button', { name: 'Show reports' }));
  return user;
}

describe('Reports tab', () => {
  it(
    'lists what lacks what SoundExchange requires, with a link to fix it, then downloads the file',
    { timeout: 20_000 },
    async () => {
      const api = fakeStaffApi({
        [`GET /api/admin/reports/licence/check?${PERIOD}&format=soundexchange&category=A`]: {
          status: 200,
          body: check,
        },
        [`GET /api/admin/reports/listeners?${PERIOD}`]: { status: 200, body: report },
        [`GET /api/admin/reports/licence?${PERIOD}&format=soundexchange&category=A`]: {
          status: 200,
          body: 'NAME_OF_SERVICE\tTRANSMISSION_CATEGORY\r\n',
        },
        'GET /api/admin/reports/retention': { status: 200, body: { days: 730 } },
      });
      const createObjectURL = vi.fn((_blob: Blob) => 'blob:report');
      Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
      const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
      const user = await showMarch();
      expect(await screen.findByTestId('licence-plays')).toHaveTextContent('120 plays to report.');
      const missing = screen.getByRole('list', { name: 'Items missing fields' });
      expect(missing).toHaveTextContent('Untagged Song · Band (4 plays): no ISRC, or album and label');
      expect(within(missing).getByRole('link', { name: 'Fix in the Library' })).toHaveAttribute(
        'href',
        '/dashboard-mgmt?tab=library&search=Untagged%20Song',
      );
      await user.click(screen.getByRole('button', { name: 'Download' }));
      await vi.waitFor(() => expect(click).toHaveBeenCalled());
      expect(api.calls('GET', '/api/admin/reports/licence').map((c) => c.path)).toContain(
        `/api/admin/reports/licence?${PERIOD}&format=soundexchange&category=A`,
      );
      expect(await createObjectURL.mock.calls[0]![0].text()).toContain('NAME_OF_SERVICE');
      // The listener report: its figures and tables.
      expect(await screen.findByTestId('report-peak', {}, { timeout: 10_000 })).toHaveTextContent('3');
      expect(screen.getByTestId('report-hours')).toHaveTextContent('1,116');
      expect(screen.getByRole('region', { name: 'Programmes, ranked by hours listened' })).toHaveTextContent(
        'Morning Praise',
      );
      // An admin reads how long the history is kept; only a superuser changes it.
      expect(screen.getByTestId('retention-days')).toHaveTextContent(
        'The as-run log and listener history are kept for 730 days (about 2 years). A superuser can change this.',
      );
      expect(screen.queryByRole('form', { name: 'Report history' })).toBeNull();
    },
  );

  it('says why a period is refused before asking the station (a presenter: no history setting either)', async () => {
    const api = fakeStaffApi({});
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ReportsTab user={presenter} />);
    expect(screen.queryByText('Report history')).toBeNull();
    const form = screen.getByRole('form', { name: 'Report period' });
    await user.clear(within(form).getByLabelText('From'));
    await user.type(within(form).getByLabelText('From'), '2026-04-01');
    await user.clear(within(form).getByLabelText('To'));
    await user.type(within(form).getByLabelText('To'), '2026-03-01');
    await user.click(within(form).getByRole('button', { name: 'Show reports' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The period ends before it begins');
    expect(api.requests).toEqual([]);
  });
});
