import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FALLBACK_STATION } from '../../lib/station';
import AdminPage from './admin-page';
import { admin, fakeStaffApi, presenter, superuser } from '../../test/fake-staff-api';
import { renderWithProviders } from '../../test/render-admin';

const verifiedAs = (user: typeof admin | typeof superuser | typeof presenter) => ({
  'GET /api/admin/verify': { status: 200, body: { user } },
});
const emptyLists = {
  'GET /api/featured-content': { status: 200, body: [] },
  'GET /api/email-subscribers': { status: 200, body: [] },
};

const PANEL_TITLE = `${FALLBACK_STATION.name} Admin Panel`;

beforeEach(() => sessionStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('admin session', () => {
  it("shows 'Loading admin panel...' while the stored token is checked, then the panel", async () => {
    sessionStorage.setItem('adminToken', 'good-token');
    let answer: (value: { status: number; body: unknown }) => void = () => {};
    const api = fakeStaffApi({
      ...emptyLists,
      'GET /api/admin/verify': () => new Promise((resolve) => (answer = resolve)),
    });
    renderWithProviders(<AdminPage />);
    expect(screen.getByText('Loading admin panel...')).toBeInTheDocument();
    answer({ status: 200, body: { user: admin } });
    expect(await screen.findByRole('heading', { name: PANEL_TITLE })).toBeInTheDocument();
    expect(api.calls('GET', '/api/admin/verify')[0]!.headers.authorization).toBe('Bearer good-token');
  });

  it('removes a token that fails the check and shows the sign-in form', async () => {
    sessionStorage.setItem('adminToken', 'expired-token');
    fakeStaffApi({
      'GET /api/admin/verify': {
        status: 401,
        body: { message: 'Your session has ended. Please sign in again.' },
      },
    });
    renderWithProviders(<AdminPage />);
    expect(await screen.findByRole('form', { name: 'Admin sign in' })).toBeInTheDocument();
    expect(sessionStorage.getItem('adminToken')).toBeNull();
  });

  it('shows the sign-in form without a token, and requires both fields', async () => {
    const api = fakeStaffApi({});
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<AdminPage />);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it.each([
    [
      'the server message',
      { status: 429, body: { message: 'Too many attempts. Please wait a minute and try again.' } },
      'Too many attempts. Please wait a minute and try again.',
    ],
    [
      "'Invalid credentials' when the answer has no message",
      { status: 401, body: 'Unauthorized' },
      'Invalid credentials',
    ],
    [
      "'Login failed. Please try again.' when the station cannot be reached",
      'network-error' as const,
      'Login failed. Please try again.',
    ],
  ])('a failed sign-in shows %s', async (_case, answer, message) => {
    fakeStaffApi({ 'POST /api/admin/login': answer });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<AdminPage />);
    await user.type(screen.getByLabelText('Username'), 'anna');
    await user.type(screen.getByLabelText('Password'), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(sessionStorage.getItem('adminToken')).toBeNull();
  });

  it('keeps the token in session storage after signing in and shows the panel', async () => {
    const api = fakeStaffApi({
      ...emptyLists,
      ...verifiedAs(admin),
      'POST /api/admin/login': {
        status: 200,
        body: { token: 'fresh-token', expiresAt: new Date().toISOString(), user: admin },
      },
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<AdminPage />);
    await user.type(screen.getByLabelText('Username'), 'anna');
    await user.type(screen.getByLabelText('Password'), 'the right one');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('heading', { name: PANEL_TITLE })).toBeInTheDocument();
    expect(sessionStorage.getItem('adminToken')).toBe('fresh-token');
    expect(api.calls('POST', '/api/admin/login')[0]!.body).toEqual({
      username: 'anna',
      password: 'the right one',
    });
  });

  it('logs out: revokes the token on the server and forgets it', async () => {
    sessionStorage.setItem('adminToken', 'good-token');
    const api = fakeStaffApi({
      ...emptyLists,
      ...verifiedAs(admin),
      'POST /api/admin/logout': { status: 200, body: { ok: true } },
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<AdminPage />);
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('form', { name: 'Admin sign in' })).toBeInTheDocument();
    expect(sessionStorage.getItem('adminToken')).toBeNull();
    await waitFor(() => expect(api.calls('POST', '/api/admin/logout')).toHaveLength(1));
    expect(api.calls('POST', '/api/admin/logout')[0]!.headers.authorization).toBe('Bearer good-token');
  });

  it('signs out when any staff call answers 401 (a deactivated account)', async () => {
    sessionStorage.setItem('adminToken', 'good-token');
    fakeStaffApi({
      ...verifiedAs(admin),
      'GET /api/featured-content': { status: 200, body: [] },
      'GET /api/email-subscribers': {
        status: 401,
        body: { message: 'Your session has ended. Please sign in again.' },
      },
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<AdminPage />);
    await user.click(await screen.findByRole('tab', { name: 'Subscribers' }));
    expect(await screen.findByRole('form', { name: 'Admin sign in' })).toBeInTheDocument();
    expect(sessionStorage.getItem('adminToken')).toBeNull();
  });

  it('checks the role again when a call answers 403, and the tabs follow a demotion', async () => {
    sessionStorage.setItem('adminToken', 'good-token');
    let role: 'superuser' | 'admin' = 'superuser';
    fakeStaffApi({
      ...emptyLists,
      'GET /api/admin/verify': () => ({ status: 200, body: { user: { ...superuser, role } } }),
      'GET /api/admin/users': () => {
        role = 'admin';
        return { status: 403, body: { message: 'Only a superuser can do this' } };
      },
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<AdminPage />);
    await user.click(await screen.findByRole('tab', { name: 'User Management' }));
    await waitFor(() => expect(screen.queryByRole('tab', { name: 'User Management' })).toBeNull());
    expect(screen.getByRole('tab', { name: 'Content' })).toHaveAttribute('aria-selected', 'true');
    expect(sessionStorage.getItem('adminToken')).toBe('good-token');
  });

  it("has a 'View Website' link opening the home page in a new tab", async () => {
    sessionStorage.setItem('adminToken', 'good-token');
    fakeStaffApi({ ...emptyLists, ...verifiedAs(admin) });
    renderWithProviders(<AdminPage />);
    const link = await screen.findByRole('link', { name: 'View Website' });
    expect(link).toHaveAttribute('href', '/');
    expect(link).toHaveAttribute('target', '_blank');
  });
});

describe('tabs by role', () => {
  /** The panel as `user` sees it: its main tab bar, and the names in a tab bar. */
  async function panelAs(user: typeof admin | typeof superuser | typeof presenter) {
    sessionStorage.setItem('adminToken', 'good-token');
    fakeStaffApi({ ...emptyLists, ...verifiedAs(user) });
    renderWithProviders(<AdminPage />);
    return screen.findByRole('tablist', { name: 'Admin sections' });
  }
  const names = (bar: HTMLElement) =>
    within(bar)
      .getAllByRole('tab')
      .map((t) => t.textContent);

  it('a superuser sees 4 tabs in 4 columns, User Management among them, and the Station tab', async () => {
    const bar = await panelAs(superuser);
    expect(names(bar)).toEqual(['Content', 'Subscribers', 'User Management', 'Settings']);
    expect(bar).toHaveClass('grid-cols-4');
    expect(names(screen.getByRole('tablist', { name: 'More admin sections' }))).toEqual([
      'Station',
      'Library',
      'Playlists',
      'Schedule',
      'Prayer',
      'Chat',
      'Listeners',
      'Reports',
      'Captions',
      'Newsletter',
    ]);
  });

  it('an admin sees 3 tabs in 3 columns and no User Management or Station', async () => {
    const bar = await panelAs(admin);
    expect(names(bar)).toEqual(['Content', 'Subscribers', 'Settings']);
    expect(bar).toHaveClass('grid-cols-3');
    expect(screen.queryByRole('tab', { name: 'User Management' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Station' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Listeners' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Library' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Playlists' })).toBeInTheDocument();
  });

  it('a presenter sees My broadcast and the Reports of their own programmes, and none of the other staff tabs', async () => {
    sessionStorage.setItem('adminToken', 'good-token');
    const api = fakeStaffApi({
      ...verifiedAs(presenter),
      'GET /api/admin/presenters/me': {
        status: 200,
        body: {
          id: presenter.id,
          username: presenter.username,
          encoder: {
            server: 'localhost',
            port: 3000,
            tls: false,
            mount: '/stream',
            username: presenter.username,
          },
          sourcePasswordSetAt: null,
          upcoming: [],
        },
      },
    });
    renderWithProviders(<AdminPage />);
    const bar = await screen.findByRole('tablist', { name: 'Admin sections' });
    expect(names(bar)).toEqual(['My broadcast']);
    expect(bar).toHaveClass('grid-cols-1');
    expect(names(screen.getByRole('tablist', { name: 'More admin sections' }))).toEqual(['Reports']);
    // The tab's code loads lazily: on two cores shared by the whole suite that can take a few seconds.
    expect(await screen.findByLabelText('Encoder settings')).toBeInTheDocument();
    // Their own sign-in password is theirs to change.
    expect(screen.getByRole('heading', { name: 'Change Password' })).toBeInTheDocument();
    // Nothing of the staff tabs' data was asked for.
    expect(api.requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'GET /api/admin/presenters/me',
      'GET /api/admin/verify',
    ]);
  });

  it('admins and superusers have no My broadcast tab', async () => {
    await panelAs(superuser);
    expect(screen.queryByRole('tab', { name: 'My broadcast' })).toBeNull();
  });
});
