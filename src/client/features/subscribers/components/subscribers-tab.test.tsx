import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeStaffApi } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { SubscribersTab } from './subscribers-tab';

afterEach(() => vi.unstubAllGlobals());

const subscribers = [
  { id: 's1', email: 'ruth@example.org', name: 'Ruth', isActive: true },
  { id: 's2', email: 'boaz@example.org', name: null, isActive: false },
];

describe('Subscribers tab', () => {
  it('lists email, name and active flag in a scrollable box about 15rem high', async () => {
    sessionStorage.setItem('adminToken', 'good-token');
    const api = fakeStaffApi({ 'GET /api/email-subscribers': { status: 200, body: subscribers } });
    renderWithProviders(<SubscribersTab />);
    expect(await screen.findByText('ruth@example.org')).toBeInTheDocument();
    expect(screen.getByText('Ruth')).toBeInTheDocument();
    expect(screen.getByText('boaz@example.org')).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText('Inactive')).toBeInTheDocument();
    expect(screen.getByTestId('subscriber-list')).toHaveClass('max-h-60', 'overflow-y-auto');
    expect(api.calls('GET', '/api/email-subscribers')[0]!.headers.authorization).toBe('Bearer good-token');
  });

  it('shows pending, confirmed and unsubscribed when the station gives the opt-in state', async () => {
    sessionStorage.setItem('adminToken', 'good-token');
    fakeStaffApi({
      'GET /api/email-subscribers': {
        status: 200,
        body: [
          { id: 'a', email: 'a@example.org', name: null, isActive: false, status: 'pending' },
          { id: 'b', email: 'b@example.org', name: null, isActive: true, status: 'confirmed' },
          { id: 'c', email: 'c@example.org', name: null, isActive: false, status: 'unsubscribed' },
        ],
      },
    });
    renderWithProviders(<SubscribersTab />);
    expect(await screen.findByText('Pending')).toBeInTheDocument();
    expect(screen.getByText('Confirmed')).toBeInTheDocument();
    expect(screen.getByText('Unsubscribed')).toBeInTheDocument();
  });

  it('downloads the CSV export with the staff token', async () => {
    sessionStorage.setItem('adminToken', 'good-token');
    const api = fakeStaffApi({
      'GET /api/email-subscribers': { status: 200, body: subscribers },
      'GET /api/email-subscribers.csv': { status: 200, body: 'email,name\nruth@example.org,Ruth\n' },
    });
    // jsdom has no object URLs; the browser's are stood in for while this test runs.
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:subscribers');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<SubscribersTab />);
    await screen.findByText('ruth@example.org');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(api.calls('GET', '/api/email-subscribers.csv')[0]!.headers.authorization).toBe(
      'Bearer good-token',
    );
    expect(await createObjectURL.mock.calls[0]![0].text()).toContain('ruth@example.org');
    click.mockRestore();
    Reflect.deleteProperty(URL, 'createObjectURL');
    Reflect.deleteProperty(URL, 'revokeObjectURL');
  });
});
