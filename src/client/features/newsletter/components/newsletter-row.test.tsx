import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Toaster } from '../../../components/ui/toaster';
import { createQueryClient } from '../../../lib/query-client';
import {
  CONFIRMATION_SENT_MESSAGE,
  NEWSLETTER_FORM_PATH,
  SUBSCRIBED_MESSAGE,
} from '../../../../common/newsletter-text';
import { sendJson, startTestServer } from '../../../test/http-server';
import { EMAIL_SUBSCRIBE_PATH } from '../api';
import { NewsletterRow } from './newsletter-row';

let status = 201;
let body: unknown = { message: 'Subscribed' };
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    if (req.method === 'POST' && req.url === EMAIL_SUBSCRIBE_PATH) {
      if (body === null) {
        res.writeHead(status);
        return void res.end();
      }
      return void sendJson(res, status, body);
    }
    sendJson(res, 404, { message: 'Not found' });
  });
});
afterAll(() => server.close());
afterEach(() => {
  server.reset();
  status = 201;
  body = { message: 'Subscribed' };
});

function renderRow() {
  server.routeFetch();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <NewsletterRow />
      <Toaster />
    </QueryClientProvider>,
  );
}

async function subscribe(email: string, name = '') {
  await userEvent.type(screen.getByLabelText('Email'), email);
  if (name) await userEvent.type(screen.getByLabelText('Name (optional)'), name);
  await userEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
}

describe('NewsletterRow', () => {
  it('is a plain form that posts to the station by itself until this code takes it over', () => {
    renderRow();
    const form = screen.getByRole('button', { name: 'Subscribe' }).closest('form')!;
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', NEWSLETTER_FORM_PATH);
    expect(screen.getByLabelText('Email')).toHaveAttribute('name', 'email');
    expect(screen.getByLabelText('Name (optional)')).toHaveAttribute('name', 'name');
  });

  it("refuses an invalid address with 'Please enter a valid email address' and sends nothing", async () => {
    renderRow();
    expect(screen.getByText('Stay Connected')).toBeInTheDocument();
    await subscribe('not-an-address');
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(server.requests).toHaveLength(0);
  });

  it("subscribes, toasts 'Successfully subscribed!' and shows 'Thank you for subscribing!'", async () => {
    renderRow();
    await subscribe('ruth@example.org', 'Ruth');
    expect(await screen.findByText('Thank you for subscribing!')).toBeInTheDocument();
    expect(screen.getByText('Successfully subscribed!')).toBeInTheDocument();
    expect(screen.getByText(/station updates and Christian content by e-mail/)).toBeInTheDocument();
    expect(screen.queryByText(SUBSCRIBED_MESSAGE)).not.toBeInTheDocument();
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ email: 'ruth@example.org', name: 'Ruth' });
  });

  it('tells a new subscriber to look for the confirmation link when the station sends one', async () => {
    body = { message: CONFIRMATION_SENT_MESSAGE };
    renderRow();
    await subscribe('naomi@example.org');
    expect(await screen.findByText('Thank you for subscribing!')).toBeInTheDocument();
    expect(screen.getByText(CONFIRMATION_SENT_MESSAGE)).toBeInTheDocument();
  });

  it("shows the server's message on failure", async () => {
    status = 429;
    body = { message: 'Too many subscriptions from this address' };
    renderRow();
    await subscribe('ruth@example.org');
    expect(await screen.findByText('Subscription failed')).toBeInTheDocument();
    expect(screen.getByText('Too many subscriptions from this address')).toBeInTheDocument();
    expect(screen.queryByText('Thank you for subscribing!')).not.toBeInTheDocument();
  });

  it("falls back to 'Failed to subscribe. Please try again.' when the server gives no message", async () => {
    status = 500;
    body = null;
    renderRow();
    await subscribe('ruth@example.org');
    expect(await screen.findByText('Failed to subscribe. Please try again.')).toBeInTheDocument();
  });
});
