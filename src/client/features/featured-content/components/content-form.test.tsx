import type { ServerResponse } from 'node:http';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { FeaturedItem } from '../../../../common/featured-content';
import { fakeStaffApi } from '../../../test/fake-staff-api';
import { startTestServer, type RecordedRequest } from '../../../test/http-server';
import { renderWithProviders } from '../../../test/render-admin';
import { ContentTab } from './content-tab';

// The add form and the edit in place are one form with every field. Pictures go up with fetch (answered at
// the fetch boundary); recordings with XMLHttpRequest, jsdom's real HTTP client, to a real server.

let answerAudio: (req: RecordedRequest, res: ServerResponse) => void;
const server = await startTestServer((req, res) => {
  res.setHeader('Access-Control-Allow-Origin', window.location.origin);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Access-Control-Allow-Headers', 'authorization');
  if (req.method === 'OPTIONS') return void res.writeHead(204).end();
  answerAudio(req, res);
});
afterEach(() => {
  vi.unstubAllGlobals();
  server.reset();
});
afterAll(() => server.close());

const uploadedAudio = (res: ServerResponse, audioUrl = '/uploads/def.mp3', durationSeconds = 754) =>
  res
    .writeHead(201, { 'Content-Type': 'application/json' })
    .end(JSON.stringify({ audioUrl, durationSeconds, mimeType: 'audio/mpeg', size: 4096 }));

const sermon: FeaturedItem = {
  id: 'c1',
  type: 'sermon',
  title: 'Grace upon grace',
  description: 'John 1 in the morning service',
  speaker: 'Pastor John',
  duration: '30:00',
  imageUrl: '/uploads/grace.webp',
  audioUrl: '/uploads/grace.mp3',
  playCount: 3,
};

const png = () => new File([new Uint8Array(512)], 'cross.png', { type: 'image/png' });
const mp3 = () => new File([new Uint8Array(4096)], 'sermon.mp3', { type: 'audio/mpeg' });

function setUp(routes: Parameters<typeof fakeStaffApi>[0] = {}) {
  const api = fakeStaffApi({ 'GET /api/featured-content': { status: 200, body: [sermon] }, ...routes });
  const Browser = XMLHttpRequest;
  vi.stubGlobal(
    'XMLHttpRequest',
    class ToTestServer extends Browser {
      override open(method: string, url: string | URL) {
        super.open(method, new URL(url, server.base).href);
      }
    },
  );
  const user = userEvent.setup({ applyAccept: false, delay: null });
  renderWithProviders(<ContentTab />);
  return { api, user };
}

const addForm = () => screen.getByRole('form', { name: 'Add featured content' });

describe('Content tab: the add form', () => {
  it('adds with every field, then is empty again, its picture and recording included', async () => {
    answerAudio = (_req, res) => uploadedAudio(res);
    const { api, user } = setUp({
      'POST /api/upload-image': { status: 201, body: { imageUrl: '/uploads/abc.webp' } },
      'POST /api/featured-content': { status: 201, body: { ...sermon, id: 'c2' } },
    });
    const form = addForm();
    expect(within(form).getByText('No image')).toBeInTheDocument();
    expect(within(form).getByText('No audio')).toBeInTheDocument();
    await user.upload(within(form).getByLabelText('Image'), png());
    expect(await within(form).findByAltText('Uploaded image preview')).toHaveAttribute(
      'src',
      '/uploads/abc.webp',
    );
    await user.upload(within(form).getByLabelText('Sermon audio'), mp3());
    expect(await screen.findByText('Audio uploaded successfully!')).toBeInTheDocument();
    // The recording's length fills the duration, which staff can still change.
    expect(within(form).getByLabelText('Duration')).toHaveValue('12:34');
    expect(within(form).getByRole('button', { name: 'Replace image' })).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Replace audio' })).toBeInTheDocument();

    await user.type(within(form).getByLabelText('Title'), 'The Prodigal Son');
    await user.type(within(form).getByLabelText('Speaker'), 'Pastor Ruth');
    await user.type(within(form).getByLabelText('Description'), 'Luke 15');
    await user.click(within(form).getByRole('button', { name: 'Add Content' }));
    expect(await screen.findByText('Content added successfully')).toBeInTheDocument();
    expect(api.calls('POST', '/api/featured-content')[0]!.body).toEqual({
      title: 'The Prodigal Son',
      type: 'sermon',
      speaker: 'Pastor Ruth',
      duration: '12:34',
      description: 'Luke 15',
      imageUrl: '/uploads/abc.webp',
      audioUrl: '/uploads/def.mp3',
    });

    for (const label of ['Title', 'Speaker', 'Duration', 'Description'])
      expect(within(form).getByLabelText(label)).toHaveValue('');
    expect(within(form).queryByAltText('Uploaded image preview')).toBeNull();
    expect(within(form).queryByLabelText('Uploaded audio')).toBeNull();
    expect(within(form).getByText('No image')).toBeInTheDocument();
    expect(within(form).getByText('No audio')).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Choose image' })).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Choose audio' })).toBeInTheDocument();
  });

  it('cannot be sent while a recording is still going up, so the item never loses it', async () => {
    let release: (() => void) | undefined;
    answerAudio = (_req, res) => {
      release = () => uploadedAudio(res);
    };
    const { user } = setUp();
    const form = addForm();
    await user.upload(within(form).getByLabelText('Sermon audio'), mp3());
    await within(form).findByText(/Uploading audio\.\.\./);
    const add = within(form).getByRole('button', { name: 'Add Content' });
    expect(add).toBeDisabled();
    // The server holds the recording until it is told.
    await vi.waitFor(() => expect(release).toBeDefined());
    expect(add).toBeDisabled();
    release!();
    expect(await within(form).findByLabelText('Uploaded audio')).toBeInTheDocument();
    expect(add).toBeEnabled();
  });
});

describe('Content tab: editing an item', () => {
  it('shows every field; replaces the picture, removes the recording, changes speaker and duration', async () => {
    const { api, user } = setUp({
      'POST /api/upload-image': { status: 201, body: { imageUrl: '/uploads/new.webp' } },
      'PUT /api/featured-content/c1': { status: 200, body: sermon },
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Grace upon grace' }));
    const form = screen.getByRole('form', { name: 'Edit Grace upon grace' });
    expect(within(form).getByLabelText('Speaker')).toHaveValue('Pastor John');
    expect(within(form).getByLabelText('Duration')).toHaveValue('30:00');
    expect(within(form).getByAltText('Uploaded image preview')).toHaveAttribute('src', '/uploads/grace.webp');
    expect(within(form).getByLabelText('Uploaded audio')).toHaveAttribute('src', '/uploads/grace.mp3');

    await user.upload(within(form).getByLabelText('Image'), png());
    await waitFor(() =>
      expect(within(form).getByAltText('Uploaded image preview')).toHaveAttribute('src', '/uploads/new.webp'),
    );
    await user.click(within(form).getByRole('button', { name: 'Remove audio' }));
    expect(within(form).getByText('No audio')).toBeInTheDocument();
    await user.clear(within(form).getByLabelText('Speaker'));
    await user.type(within(form).getByLabelText('Speaker'), 'Deacon Samuel');
    await user.clear(within(form).getByLabelText('Duration'));
    await user.type(within(form).getByLabelText('Duration'), '45:00');
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Content updated successfully')).toBeInTheDocument();
    expect(api.calls('PUT', '/api/featured-content/c1')[0]!.body).toEqual({
      title: 'Grace upon grace',
      type: 'sermon',
      speaker: 'Deacon Samuel',
      duration: '45:00',
      description: 'John 1 in the morning service',
      imageUrl: '/uploads/new.webp',
      audioUrl: null,
    });
    expect(screen.queryByRole('form', { name: 'Edit Grace upon grace' })).toBeNull();
  });

  it('removes the picture and clears the speaker (sent as null)', async () => {
    const { api, user } = setUp({ 'PUT /api/featured-content/c1': { status: 200, body: sermon } });
    await user.click(await screen.findByRole('button', { name: 'Edit Grace upon grace' }));
    const form = screen.getByRole('form', { name: 'Edit Grace upon grace' });
    await user.click(within(form).getByRole('button', { name: 'Remove image' }));
    expect(within(form).getByText('No image')).toBeInTheDocument();
    await user.clear(within(form).getByLabelText('Speaker'));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByText('Content updated successfully');
    expect(api.calls('PUT', '/api/featured-content/c1')[0]!.body).toMatchObject({
      imageUrl: null,
      speaker: null,
      audioUrl: '/uploads/grace.mp3',
    });
  });
});
