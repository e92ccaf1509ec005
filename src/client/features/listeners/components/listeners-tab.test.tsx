import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeStaffApi } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { ListenersTab } from './listeners-tab';

afterEach(() => vi.unstubAllGlobals());

const stats = (days: 7 | 30) => ({
  days,
  until: '2026-11-21T10:00:00.000Z',
  peakListeners: 12,
  listeningHours: 34.5,
  perMinute: [
    { at: '2026-11-20T10:00:00.000Z', listeners: 3 },
    { at: '2026-11-20T10:01:00.000Z', listeners: 5 },
  ],
  minutesPerPoint: 1,
  perDay: Array.from({ length: days }, (_, i) => ({
    date: `2026-10-${String(i + 1).padStart(2, '0')}`,
    hours: i,
  })),
});

describe('Listeners tab', () => {
  it('shows listeners now and the period figures, and switches to 30 days', async () => {
    const api = fakeStaffApi({
      'GET /api/radio/current': { status: 200, body: { listeners: 7, current_track: { title: 'x' } } },
      'GET /api/admin/listeners?days=7': { status: 200, body: stats(7) },
      'GET /api/admin/listeners?days=30': { status: 200, body: { ...stats(30), peakListeners: 40 } },
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ListenersTab />);
    await waitFor(() => expect(screen.getByTestId('listeners-now')).toHaveTextContent('7'));
    expect(await screen.findByText('12')).toBeInTheDocument();
    expect(screen.getByText('34.5')).toBeInTheDocument();
    // The charts' module loads on demand: on a busy machine its first import takes more than a second.
    expect(await screen.findByTestId('listeners-per-minute', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByTestId('listening-hours-per-day')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Last 30 days' }));
    expect(await screen.findByText('40')).toBeInTheDocument();
    expect(api.calls('GET', '/api/admin/listeners').map((r) => r.path)).toEqual([
      '/api/admin/listeners?days=7',
      '/api/admin/listeners?days=30',
    ]);
  });
});
