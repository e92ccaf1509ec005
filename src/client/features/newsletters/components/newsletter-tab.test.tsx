import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NEWSLETTER_NEEDS_SMTP } from '../../../../common/newsletters';
import { fakeStaffApi } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { NewsletterTab } from './newsletter-tab';

afterEach(() => vi.unstubAllGlobals());

const sent = {
  id: 'n1',
  subject: 'Harvest appeal',
  createdBy: 'anna',
  createdAt: '2026-11-01T09:00:00.000Z',
  finishedAt: '2026-11-01T09:05:00.000Z',
  status: 'done',
  perSecond: 1,
  recipients: 40,
  sent: 38,
  failed: 2,
  left: 0,
  skipped: 0,
  unknown: 0,
};

function station(canSend: boolean, newsletters: object[] = []) {
  sessionStorage.setItem('adminToken', 'good-token');
  return fakeStaffApi({
    'GET /api/newsletters': { status: 200, body: { canSend, newsletters } },
    'POST /api/newsletters/preview': ({ body }) => ({
      status: 200,
      body: {
        subject: (body as { subject: string }).subject,
        html: '<p>Dear friends</p>\n<hr>\n<p>Unsubscribe</p>',
        text: 'Dear friends',
      },
    }),
    'POST /api/newsletters': { status: 202, body: { id: 'n2' } },
    'GET /api/newsletters/n1': {
      status: 200,
      body: {
        ...sent,
        body: 'Text',
        imageUrl: null,
        failures: [
          { email: 'gone@example.org', attempts: 3, state: 'failed', error: '550 Mailbox unavailable' },
        ],
      },
    },
  });
}

describe('Newsletter tab', () => {
  it('says sending needs SMTP_URL and offers no send without it, but still previews', async () => {
    const api = station(false);
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<NewsletterTab />);
    expect(await screen.findByText(NEWSLETTER_NEEDS_SMTP, { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send to subscribers' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send test' })).toBeDisabled();
    await user.type(screen.getByLabelText('Subject'), 'Easter');
    await user.type(screen.getByLabelText('Text'), 'Dear friends');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByTitle('Newsletter preview')).toHaveAttribute('sandbox', '');
    expect(screen.getByTitle('Newsletter preview').getAttribute('srcdoc')).toContain('<p>Dear friends</p>');
    expect(api.calls('POST', '/api/newsletters')).toHaveLength(0);
  });

  it('checks the form, then sends at the pace chosen after a second click', async () => {
    const api = station(true);
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<NewsletterTab />);
    await user.click(await screen.findByRole('button', { name: 'Send to subscribers' }));
    await user.click(screen.getByRole('button', { name: 'Yes, send it to every confirmed subscriber' }));
    expect(await screen.findByText('Subject is required')).toBeInTheDocument();
    expect(screen.getByText('Text is required')).toBeInTheDocument();
    expect(api.calls('POST', '/api/newsletters')).toHaveLength(0);

    await user.type(screen.getByLabelText('Subject'), 'Easter services');
    await user.type(screen.getByLabelText('Text'), 'We are on air all weekend.');
    expect(screen.getByLabelText('Messages a second')).toHaveValue(1);
    await user.clear(screen.getByLabelText('Messages a second'));
    await user.type(screen.getByLabelText('Messages a second'), '2');
    await user.click(screen.getByRole('button', { name: 'Yes, send it to every confirmed subscriber' }));
    await waitFor(() => expect(api.calls('POST', '/api/newsletters')).toHaveLength(1));
    expect(api.calls('POST', '/api/newsletters')[0]!.body).toEqual({
      subject: 'Easter services',
      body: 'We are on air all weekend.',
      imageUrl: null,
      perSecond: 2,
    });
    await waitFor(() => expect(screen.getByLabelText('Subject')).toHaveValue(''));
  });

  it('lists what was sent, by whom and to how many, and the failures with the SMTP answer', async () => {
    station(true, [sent]);
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<NewsletterTab />);
    const list = await screen.findByRole('list', { name: 'Sent newsletters' });
    expect(within(list).getByText('Harvest appeal')).toBeInTheDocument();
    expect(within(list).getByText(/by anna, to 40 subscribers/)).toBeInTheDocument();
    expect(within(list).getByTestId('newsletter-counts')).toHaveTextContent('Sent 38 · Failed 2 · Left 0');
    await user.click(within(list).getByRole('button', { name: 'Show failures' }));
    const failures = await screen.findByRole('list', { name: 'Failures' });
    expect(failures).toHaveTextContent('gone@example.org (3 attempts): 550 Mailbox unavailable');
  });
});
