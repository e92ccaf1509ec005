import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SAMPLE_NOTICE_TITLE } from '../../../../common/sample-content';
import { fakeStaffApi } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { SAMPLE_NOTICE_DISMISSED_KEY, SampleNotice } from './sample-notice';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const PATH = '/api/admin/sample-content';

function setUp(left = { programs: 43, featured: 4 }) {
  let current = left;
  const api = fakeStaffApi({
    [`GET ${PATH}`]: () => ({ status: 200, body: current }),
    [`POST ${PATH}/removal`]: () => {
      const removed = current;
      current = { programs: 0, featured: 0 };
      return { status: 200, body: { removed } };
    },
  });
  const user = userEvent.setup({ delay: null });
  const view = renderWithProviders(<SampleNotice />);
  return { api, user, ...view };
}

describe('sample content notice', () => {
  it('tells staff what is sample and removes it after the confirmation', async () => {
    const { api, user } = setUp();
    const notice = await screen.findByRole('region', { name: SAMPLE_NOTICE_TITLE });
    expect(notice).toHaveTextContent('43 programmes in the Schedule and 4 featured items in Content');

    await user.click(within(notice).getByRole('button', { name: 'Remove sample content' }));
    const dialog = await screen.findByRole('alertdialog');
    // Cancelling removes nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls('POST', `${PATH}/removal`)).toEqual([]);

    await user.click(within(notice).getByRole('button', { name: 'Remove sample content' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Sample content removed')).toBeInTheDocument();
    expect(screen.getByText('43 programmes and 4 featured items.')).toBeInTheDocument();
    expect(api.calls('POST', `${PATH}/removal`).map((call) => call.body)).toEqual([{ confirm: true }]);
    await waitFor(() => expect(screen.queryByRole('region', { name: SAMPLE_NOTICE_TITLE })).toBeNull());
  });

  it('stays away once dismissed in this browser, and when nothing sample is left', async () => {
    const { user, unmount } = setUp({ programs: 1, featured: 0 });
    const notice = await screen.findByRole('region', { name: SAMPLE_NOTICE_TITLE });
    expect(notice).toHaveTextContent('1 programme in the Schedule and 0 featured items');
    await user.click(within(notice).getByRole('button', { name: 'Keep it for now' }));
    expect(screen.queryByRole('region', { name: SAMPLE_NOTICE_TITLE })).toBeNull();
    expect(localStorage.getItem(SAMPLE_NOTICE_DISMISSED_KEY)).toBe('1');
    unmount();

    const again = setUp();
    await waitFor(() => expect(again.api.calls('GET', PATH).length).toBeGreaterThan(0));
    expect(screen.queryByRole('region', { name: SAMPLE_NOTICE_TITLE })).toBeNull();
    again.unmount();
    localStorage.clear();

    const empty = setUp({ programs: 0, featured: 0 });
    await waitFor(() => expect(empty.api.calls('GET', PATH).length).toBeGreaterThan(0));
    expect(screen.queryByTestId('sample-notice')).toBeNull();
  });
});
