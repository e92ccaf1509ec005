import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeStaffApi } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { StationTab } from './station-tab';

afterEach(() => vi.unstubAllGlobals());

const station = {
  name: 'Grace Radio',
  networkName: 'Grace Network',
  networkUrl: 'https://grace.example',
  timeZone: 'Europe/London',
};

describe('Station tab', () => {
  it('saves the station details', { timeout: 30_000 }, async () => {
    const api = fakeStaffApi({
      'GET /api/admin/station': { status: 200, body: station },
      'PUT /api/admin/station': {
        status: 200,
        body: { ...station, name: 'Grace FM', timeZone: 'Africa/Lagos' },
      },
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<StationTab />);
    const name = await screen.findByLabelText('Station Name');
    expect(name).toHaveValue('Grace Radio');
    expect(screen.getByLabelText('Time Zone')).toHaveValue('Europe/London');
    await user.clear(name);
    await user.type(name, 'Grace FM');
    await user.selectOptions(screen.getByLabelText('Time Zone'), 'Africa/Lagos');
    await user.click(screen.getByRole('button', { name: 'Save Station Settings' }));
    // The first toast of the file loads the toast area's code: a busy machine needs more than a second.
    expect(await screen.findByText('Station settings saved', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(api.calls('PUT', '/api/admin/station')[0]!.body).toEqual({
      ...station,
      name: 'Grace FM',
      timeZone: 'Africa/Lagos',
      links: {},
    });
  });

  it('sets the links of the footer and social band; a blank one is left to its default', async () => {
    const saved = { facebook: 'https://facebook.com/grace', contactEmail: 'studio@grace.example' };
    const api = fakeStaffApi({
      'GET /api/admin/station': {
        status: 200,
        body: { ...station, links: { instagram: 'https://instagram.com/old' } },
      },
      'PUT /api/admin/station': { status: 200, body: { ...station, links: saved } },
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<StationTab />);
    const instagram = await screen.findByLabelText('Instagram');
    expect(instagram).toHaveValue('https://instagram.com/old');
    expect(screen.getByLabelText('Privacy Policy')).toHaveAttribute(
      'placeholder',
      'https://grace.example/privacy',
    );
    expect(screen.getByLabelText('Contact E-mail')).toHaveAttribute('placeholder', 'info@grace.example');
    await user.clear(instagram);
    await user.type(screen.getByLabelText('Facebook'), saved.facebook);
    await user.type(screen.getByLabelText('Contact E-mail'), saved.contactEmail);
    await user.click(screen.getByRole('button', { name: 'Save Station Settings' }));
    expect(await screen.findByText('Station settings saved')).toBeInTheDocument();
    expect(api.calls('PUT', '/api/admin/station')[0]!.body).toEqual({ ...station, links: saved });
  });

  it('refuses a link that is not http(s) and a contact address with more than an address in it', async () => {
    const api = fakeStaffApi({ 'GET /api/admin/station': { status: 200, body: station } });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<StationTab />);
    await user.type(await screen.findByLabelText('YouTube'), 'javascript:alert(1)');
    await user.type(screen.getByLabelText('Contact E-mail'), 'a@grace.example?subject=hi');
    await user.click(screen.getByRole('button', { name: 'Save Station Settings' }));
    expect(
      await screen.findByText('YouTube address must be an http(s) address, such as https://example.org/page'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Contact e-mail must be an address such as info@example.org'),
    ).toBeInTheDocument();
    expect(api.calls('PUT', '/api/admin/station')).toEqual([]);
  });

  it('refuses an empty name and a network address that is not http(s)', async () => {
    const api = fakeStaffApi({ 'GET /api/admin/station': { status: 200, body: station } });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<StationTab />);
    await user.clear(await screen.findByLabelText('Station Name'));
    await user.clear(screen.getByLabelText('Network Address'));
    await user.type(screen.getByLabelText('Network Address'), 'ftp://grace.example');
    await user.click(screen.getByRole('button', { name: 'Save Station Settings' }));
    expect(await screen.findByText('Station name is required')).toBeInTheDocument();
    expect(screen.getByText('Network address must be an http(s) address')).toBeInTheDocument();
    expect(api.calls('PUT', '/api/admin/station')).toEqual([]);
  });

  it('rotates the source password after a confirmation and shows it once with the encoder address', async () => {
    const api = fakeStaffApi({
      'GET /api/admin/station': { status: 200, body: station },
      'POST /api/admin/station/source-password': { status: 200, body: { sourcePassword: 'new-secret-123' } },
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<StationTab />);
    await user.click(screen.getByRole('button', { name: 'Rotate Source Password' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Rotate' }));
    expect(await screen.findByLabelText('New source password')).toHaveValue('new-secret-123');
    expect(screen.getByLabelText('Encoder address')).toHaveValue(
      `icecast://source:new-secret-123@${window.location.host}/stream`,
    );
    expect(api.calls('POST', '/api/admin/station/source-password')).toHaveLength(1);
  });

  it.each([
    ['allows', false, true, 'On air from http://192.168.1.20:8000/live'],
    ['stops allowing', true, false, 'On air from this station'],
  ])(
    '%s a private network source with its checkbox and sends it with the source',
    async (_case, saved, next, said) => {
      const streamSource = next ? 'icecast:http://192.168.1.20:8000/live' : null;
      const api = fakeStaffApi({
        'GET /api/admin/station': { status: 200, body: station },
        'GET /api/admin/stream-source': {
          status: 200,
          body: { streamSource: null, allowPrivateNetwork: saved },
        },
        'PUT /api/admin/stream-source': { status: 200, body: { streamSource, allowPrivateNetwork: next } },
      });
      const user = userEvent.setup({ delay: null });
      renderWithProviders(<StationTab />);
      const box = await screen.findByRole('checkbox', { name: /Allow a private network source/ });
      expect(box).toHaveProperty('checked', saved);
      await user.click(box);
      if (next) {
        await user.click(screen.getByRole('radio', { name: /An Icecast mount/ }));
        await user.type(screen.getByLabelText('Stream address'), 'http://192.168.1.20:8000/live');
      }
      await user.click(screen.getByRole('button', { name: 'Save Stream Source' }));
      expect(await screen.findByText(said)).toBeInTheDocument();
      expect(api.calls('PUT', '/api/admin/stream-source')[0]!.body).toEqual({
        streamSource,
        allowPrivateNetwork: next,
      });
      expect(screen.getByRole('checkbox', { name: /Allow a private network source/ })).toHaveProperty(
        'checked',
        next,
      );
    },
  );

  it('shows the one refusal the server gives for an address it will not use', async () => {
    fakeStaffApi({
      'GET /api/admin/station': { status: 200, body: station },
      'GET /api/admin/stream-source': {
        status: 200,
        body: { streamSource: null, allowPrivateNetwork: false },
      },
      'PUT /api/admin/stream-source': {
        status: 400,
        body: { message: 'Not saved: that address cannot be used as the stream source.' },
      },
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<StationTab />);
    await user.click(await screen.findByRole('radio', { name: /Another stream address/ }));
    await user.type(screen.getByLabelText('Stream address'), 'http://10.0.0.5/live');
    await user.click(screen.getByRole('button', { name: 'Save Stream Source' }));
    expect(
      await screen.findByText('Not saved: that address cannot be used as the stream source.'),
    ).toBeInTheDocument();
  });

  it('downloads a backup with the superuser token', async () => {
    sessionStorage.setItem('adminToken', 'super-token');
    const api = fakeStaffApi({
      'GET /api/admin/station': { status: 200, body: station },
      'GET /api/admin/backup': { status: 200, body: 'archive bytes' },
    });
    // jsdom has no object URLs; the browser's are stood in for while this test runs.
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:backup');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<StationTab />);
    await user.click(screen.getByRole('button', { name: 'Download Backup' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(api.calls('GET', '/api/admin/backup')[0]!.headers.authorization).toBe('Bearer super-token');
    expect(await createObjectURL.mock.calls[0]![0].text()).toBe('archive bytes');
    click.mockRestore();
    Reflect.deleteProperty(URL, 'createObjectURL');
    Reflect.deleteProperty(URL, 'revokeObjectURL');
  });

  it('says why when the backup cannot be downloaded', async () => {
    fakeStaffApi({
      'GET /api/admin/station': { status: 200, body: station },
      'GET /api/admin/backup': { status: 403, body: { message: 'Superuser access required' } },
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<StationTab />);
    await user.click(screen.getByRole('button', { name: 'Download Backup' }));
    expect(await screen.findByText('Backup failed')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download Backup' })).toBeEnabled();
  });
});
