import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Toaster } from '../../../components/ui/toaster';
import { createQueryClient } from '../../../lib/query-client';
import { sendJson, startTestServer } from '../../../test/http-server';
import { PRAYER_FORM_PATH } from '../../../../common/prayer-text';
import { PRAYER_REQUESTS_PATH } from '../api';
import { PrayerCard } from './prayer-card';

let status = 201;
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    if (req.method === 'POST' && req.url === PRAYER_REQUESTS_PATH)
      return void sendJson(res, status, status < 400 ? { id: '1' } : { message: 'Too many requests' });
    sendJson(res, 404, { message: 'Not found' });
  });
});
afterAll(() => server.close());
afterEach(() => {
  server.reset();
  status = 201;
});

function renderCard() {
  server.routeFetch();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <PrayerCard />
      <Toaster />
    </QueryClientProvider>,
  );
}

describe('PrayerCard', () => {
  it('is the #prayer target with a required 4-row textarea and confidential wording', () => {
    renderCard();
    const textarea = screen.getByLabelText('Prayer request');
    expect(textarea).toHaveAttribute('rows', '4');
    expect(textarea).toBeRequired();
    expect(document.getElementById('prayer')).toContainElement(textarea);
    expect(screen.getByText(/confidential and prayed for by our pastoral team/)).toBeInTheDocument();
  });

  it('is a plain form that posts to the station by itself until this code takes it over', () => {
    renderCard();
    const form = screen.getByRole('button', { name: 'Submit Prayer Request' }).closest('form')!;
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', PRAYER_FORM_PATH);
    expect(screen.getByLabelText('Prayer request')).toHaveAttribute('name', 'request');
    expect(screen.getByLabelText('Your name (optional)')).toHaveAttribute('name', 'name');
  });

  it("refuses a blank request with 'Please enter your prayer request.' and sends nothing", async () => {
    renderCard();
    await userEvent.type(screen.getByLabelText('Prayer request'), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Submit Prayer Request' }));
    expect(await screen.findByText('Please enter your prayer request.')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(server.requests).toHaveLength(0);
  });

  it('sends a trimmed private request without an empty name, then thanks and clears the form', async () => {
    renderCard();
    await userEvent.type(screen.getByLabelText('Prayer request'), '  Healing for my mother  ');
    await userEvent.type(screen.getByLabelText('Your name (optional)'), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Submit Prayer Request' }));
    expect(await screen.findByText('Prayer Request Submitted')).toBeInTheDocument();
    expect(
      screen.getByText('Thank you for your prayer request. Our team will pray for you.'),
    ).toBeInTheDocument();
    expect(JSON.parse(server.requests[0]!.body)).toEqual({
      request: 'Healing for my mother',
      isPrivate: 'true',
    });
    expect(screen.getByLabelText('Prayer request')).toHaveValue('');
  });

  it('sends the trimmed name when given', async () => {
    renderCard();
    await userEvent.type(screen.getByLabelText('Prayer request'), 'Work');
    await userEvent.type(screen.getByLabelText('Your name (optional)'), ' Ruth ');
    await userEvent.click(screen.getByRole('button', { name: 'Submit Prayer Request' }));
    await screen.findByText('Prayer Request Submitted');
    expect(JSON.parse(server.requests[0]!.body)).toEqual({
      name: 'Ruth',
      request: 'Work',
      isPrivate: 'true',
    });
  });

  it("shows SPEC.md's failure toast and keeps the text when the station refuses", async () => {
    status = 429;
    renderCard();
    await userEvent.type(screen.getByLabelText('Prayer request'), 'Peace');
    await userEvent.click(screen.getByRole('button', { name: 'Submit Prayer Request' }));
    expect(await screen.findByText('Failed to submit prayer request. Please try again.')).toBeInTheDocument();
    expect(screen.getByLabelText('Prayer request')).toHaveValue('Peace');
  });
});
