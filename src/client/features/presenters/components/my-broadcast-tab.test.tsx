import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MyBroadcast } from '../../../../common/presenters';
import { fakeStaffApi } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { MyBroadcastTab } from './my-broadcast-tab';

afterEach(() => vi.unstubAllGlobals());

const area = (over: Partial<MyBroadcast> = {}): MyBroadcast => ({
  id: 'u-ruth',
  username: 'pastor-ruth',
  encoder: { server: 'radio.example.org', port: 443, tls: true, mount: '/stream', username: 'pastor-ruth' },
  sourcePasswordSetAt: null,
  upcoming: [
    {
      programmeTitle: 'Sunday Service',
      opensAt: '2026-11-29T09:55:00.000Z',
      startsAt: '2026-11-29T10:00:00.000Z',
      endsAt: '2026-11-29T11:30:00.000Z',
    },
  ],
  ...over,
});

describe('My broadcast', () => {
  it("shows the encoder's settings and the presenter's programmes in the station's time zone", async () => {
    fakeStaffApi({ 'GET /api/admin/presenters/me': { status: 200, body: area() } });
    renderWithProviders(<MyBroadcastTab />);
    const list = await screen.findByLabelText('Encoder settings');
    const pairs = [...list.querySelectorAll('dt')].map(
      (dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent}`,
    );
    expect(pairs).toEqual([
      'Server type: Icecast 2',
      'Server: radio.example.org',
      'Port: 443',
      'Secure connection: Yes (TLS/SSL)',
      'Mount: /stream',
      'Username: pastor-ruth',
      'Password: None yet: make one below',
    ]);
    const programme = screen.getByTestId('my-programme');
    expect(programme).toHaveTextContent('Sunday Service');
    expect(programme).toHaveTextContent('Sun 29 Nov, 10:00 to 11:30 · your encoder is let in from 09:55');
  });

  it('says so when no programme of theirs is on the schedule', async () => {
    fakeStaffApi({ 'GET /api/admin/presenters/me': { status: 200, body: area({ upcoming: [] }) } });
    renderWithProviders(<MyBroadcastTab />);
    expect(
      await screen.findByText('No programme of yours is on the schedule in the next 7 days.'),
    ).toBeInTheDocument();
  });

  it('makes the first source password at once and shows it once with the encoder address', async () => {
    const api = fakeStaffApi({
      'GET /api/admin/presenters/me': { status: 200, body: area() },
      'POST /api/admin/presenters/me/source-password': {
        status: 200,
        body: { sourcePassword: 'n3w-s3cret_pw' },
      },
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<MyBroadcastTab />);
    await user.click(await screen.findByRole('button', { name: 'New Source Password' }));
    expect(await screen.findByLabelText('Your new source password')).toHaveValue('n3w-s3cret_pw');
    expect(screen.getByLabelText('Encoder address')).toHaveValue(
      'icecast://pastor-ruth:n3w-s3cret_pw@radio.example.org:443/stream',
    );
    expect(api.calls('POST', '/api/admin/presenters/me/source-password')).toHaveLength(1);
    // The area is read again: it now says when the password was made.
    expect(api.calls('GET', '/api/admin/presenters/me').length).toBeGreaterThanOrEqual(2);
  });

  it('asks before replacing a source password the encoder holds, and does nothing when cancelled', async () => {
    const api = fakeStaffApi({
      'GET /api/admin/presenters/me': {
        status: 200,
        body: area({ sourcePasswordSetAt: '2026-11-20T18:00:00.000Z' }),
      },
      'POST /api/admin/presenters/me/source-password': { status: 200, body: { sourcePassword: 'again-pw' } },
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<MyBroadcastTab />);
    expect(await screen.findByText('Your source password, made Fri 20 Nov, 18:00')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New Source Password' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    expect(api.calls('POST', '/api/admin/presenters/me/source-password')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'New Source Password' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Make New Password' }),
    );
    expect(await screen.findByLabelText('Your new source password')).toHaveValue('again-pw');
  });

  it("shows the server's message when a new password cannot be made", async () => {
    fakeStaffApi({
      'GET /api/admin/presenters/me': { status: 200, body: area() },
      'POST /api/admin/presenters/me/source-password': {
        status: 409,
        body: { message: 'Only presenters have their own source password' },
      },
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<MyBroadcastTab />);
    await user.click(await screen.findByRole('button', { name: 'New Source Password' }));
    expect(await screen.findByText('Only presenters have their own source password')).toBeInTheDocument();
    expect(screen.queryByTestId('shown-once-password')).toBeNull();
  });

  it('says so when the area cannot be loaded', async () => {
    fakeStaffApi({ 'GET /api/admin/presenters/me': { status: 500, body: { message: 'boom' } } });
    renderWithProviders(<MyBroadcastTab />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Your broadcast details could not be loaded');
  });
});
