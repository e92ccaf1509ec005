import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeStaffApi, type FakeRequest } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { daysInWords, RetentionPanel } from './retention-panel';

afterEach(() => vi.unstubAllGlobals());

const PATH = '/api/admin/reports/retention';

describe('how long reports are kept', () => {
  it('says a number of days as staff think of it', () => {
    expect([31, 90, 364, 365, 400, 730, 3660].map(daysInWords)).toEqual([
      'about 1 month',
      'about 3 months',
      'about 12 months',
      'about 1 year',
      'about 1.1 years',
      'about 2 years',
      'about 10 years',
    ]);
  });

  it('lets a superuser change it: checked before sending, saved, and the station’s refusal shown', async () => {
    let stored = 730;
    const api = fakeStaffApi({
      [`GET ${PATH}`]: () => ({ status: 200, body: { days: stored } }),
      [`PUT ${PATH}`]: (request: FakeRequest) => {
        const { days } = request.body as { days: number };
        if (days > 1000) return { status: 403, body: { message: 'Only a superuser can do this' } };
        stored = days;
        return { status: 200, body: { days } };
      },
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<RetentionPanel canChange />);
    const form = await screen.findByRole('form', { name: 'Report history' });
    const days = within(form).getByLabelText('Keep the as-run log and listener history for (days)');
    expect(days).toHaveValue(730);
    expect(form).toHaveTextContent('That is about 2 years.');

    // Too short: said at once, nothing sent.
    await user.clear(days);
    await user.type(days, '30');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Keep at least 31 days');
    expect(days).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls('PUT', PATH)).toEqual([]);

    await user.clear(days);
    await user.type(days, '400');
    expect(form).toHaveTextContent('That is about 1.1 years.');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(api.calls('PUT', PATH).map((c) => c.body)).toEqual([{ days: 400 }]));
    await vi.waitFor(() => expect(within(form).queryByRole('alert')).toBeNull());
    expect(stored).toBe(400);

    // The station's own refusal reaches the form.
    await user.clear(days);
    await user.type(days, '2000');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Only a superuser can do this');
    expect(stored).toBe(400);
  });

  it('shows an admin the setting without a way to change it', async () => {
    fakeStaffApi({ [`GET ${PATH}`]: { status: 200, body: { days: 90 } } });
    renderWithProviders(<RetentionPanel canChange={false} />);
    expect(await screen.findByTestId('retention-days')).toHaveTextContent(
      'kept for 90 days (about 3 months). A superuser can change this.',
    );
    expect(screen.queryByRole('spinbutton')).toBeNull();
  });
});
