import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MediaItem, MediaList } from '../../../../common/library';
import { fakeStaffApi } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { UploadQueue } from '../upload-queue';
import { LibraryView } from './library-tab';

afterEach(() => vi.unstubAllGlobals());

function media(overrides: Partial<MediaItem> = {}): MediaItem {
  return {
    id: 'm1',
    title: 'Amazing Grace',
    artist: 'Grace Choir',
    album: 'Hymns of Hope',
    isrc: '',
    label: '',
    composer: '',
    ccli_song_number: '',
    kind: 'music',
    status: 'ready',
    error: null,
    original_name: 'amazing-grace.flac',
    format: 'flac',
    sample_rate: 48000,
    channels: 2,
    size_bytes: 18_000_000,
    duration_seconds: 187.4,
    loudness_lufs: -14.24,
    true_peak_dbtp: -1.2,
    cue_in_seconds: 0.1,
    cue_out_seconds: 187,
    artwork_url: null,
    subtitle_languages: [],
    draft: false,
    created_at: '2025-03-01T10:00:00.000Z',
    ...overrides,
  };
}

const listOf = (...items: MediaItem[]): MediaList => ({ items, total: items.length });
const LIST = 'GET /api/library';

/** An upload the test finishes by hand, telling progress on the way as the browser would. */
function controlledSend() {
  const sent: {
    file: File;
    progress: (f: number) => void;
    resolve: (i: MediaItem) => void;
    reject: (e: unknown) => void;
  }[] = [];
  const send = (file: File, progress: (f: number) => void) =>
    new Promise<MediaItem>((resolve, reject) => sent.push({ file, progress, resolve, reject }));
  return { sent, queue: new UploadQueue(send) };
}

function setUp(routes: Parameters<typeof fakeStaffApi>[0] = {}, queue = controlledSend().queue) {
  const api = fakeStaffApi({ [LIST]: { status: 200, body: listOf(media()) }, ...routes });
  const user = userEvent.setup({ delay: null });
  renderWithProviders(<LibraryView uploads={queue} />);
  return { api, user };
}

const audioFile = (name: string, type = 'audio/mpeg') => new File([new Uint8Array(2048)], name, { type });

describe('Library tab: the list', () => {
  it('shows title, artist, album, kind, duration and measured loudness, or that it is still analysing, or why not', async () => {
    setUp({
      [LIST]: {
        status: 200,
        body: listOf(
          media(),
          media({
            id: 'm2',
            title: 'Sunday sermon',
            kind: 'sermon',
            status: 'analysing',
            loudness_lufs: null,
          }),
          media({
            id: 'm3',
            title: 'Broken upload',
            kind: 'jingle',
            status: 'failed',
            error: 'No audio stream in the file',
            duration_seconds: null,
            loudness_lufs: null,
          }),
        ),
      },
    });
    const rows = await screen.findAllByTestId('media-row');
    expect(rows).toHaveLength(3);
    const first = within(rows[0]!);
    expect(first.getByRole('heading', { name: 'Amazing Grace' })).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('Grace Choir');
    expect(rows[0]).toHaveTextContent('Hymns of Hope');
    expect(first.getByText('Music')).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('3:07');
    expect(first.getByText('\u221214.2 LUFS')).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('amazing-grace.flac · FLAC · 48 kHz · stereo');
    expect(within(rows[1]!).getByText('Analysing…')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Sermon')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Analysis failed: No audio stream in the file')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Jingle')).toBeInTheDocument();
    expect(screen.getByText('3 items')).toBeInTheDocument();
  });

  it('reads the list again by itself while an item is analysing, and stops once none is', async () => {
    let reads = 0;
    const api = fakeStaffApi({
      [LIST]: () => {
        reads++;
        const measured = reads >= 2;
        return {
          status: 200,
          body: listOf(
            media({ status: measured ? 'ready' : 'analysing', loudness_lufs: measured ? -16.04 : null }),
          ),
        };
      },
    });
    renderWithProviders(<LibraryView uploads={controlledSend().queue} />);
    expect(await screen.findByText('Analysing…')).toBeInTheDocument();
    expect(await screen.findByText('\u221216.0 LUFS')).toBeInTheDocument();
    expect(screen.queryByText('Analysing…')).toBeNull();
    const settled = api.calls('GET', '/api/library').length;
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(api.calls('GET', '/api/library')).toHaveLength(settled);
  }, 15_000);

  it('searches as staff type and filters by kind', async () => {
    const { api, user } = setUp({
      'GET /api/library?search=grace&kind=sermon&offset=0&limit=50': {
        status: 200,
        body: listOf(media({ id: 'm9', title: 'Grace in Ephesians', kind: 'sermon' })),
      },
    });
    await screen.findByText('Amazing Grace');
    expect(api.calls('GET', '/api/library')[0]!.path).toBe('/api/library?offset=0&limit=50');
    await user.selectOptions(screen.getByLabelText('Kind'), 'Sermon');
    await user.type(screen.getByLabelText('Search'), 'grace');
    expect(await screen.findByText('Grace in Ephesians')).toBeInTheDocument();
    expect(screen.queryByText('Amazing Grace')).toBeNull();
    // Typing is one search once it pauses, not one per key.
    const searches = api.calls('GET', '/api/library').filter((c) => c.path.includes('search='));
    expect(searches.map((c) => c.path)).toEqual(['/api/library?search=grace&kind=sermon&offset=0&limit=50']);
  });

  it('says so when nothing matches', async () => {
    const { user } = setUp({
      'GET /api/library?kind=jingle&offset=0&limit=50': { status: 200, body: listOf() },
    });
    await screen.findByText('Amazing Grace');
    await user.selectOptions(screen.getByLabelText('Kind'), 'Jingle');
    expect(await screen.findByText('Nothing in the library matches.')).toBeInTheDocument();
  });

  it('pages through a long library', async () => {
    const page = (offset: number, count: number) =>
      Array.from({ length: count }, (_, i) =>
        media({ id: `p${offset + i}`, title: `Track ${offset + i + 1}` }),
      );
    const { user } = setUp({
      [LIST]: { status: 200, body: { items: page(0, 50), total: 60 } },
      'GET /api/library?offset=50&limit=50': { status: 200, body: { items: page(50, 10), total: 60 } },
    });
    // Fifty rows render slowly in jsdom when the whole suite runs at once on two cores.
    expect(await screen.findByText('1–50 of 60 items', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('51–60 of 60 items', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByText('Track 60')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    // The search box's pause after the first render does not turn the page back.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(screen.getByText('51–60 of 60 items')).toBeInTheDocument();
  }, 40_000);
});

describe('Library tab: uploads', () => {
  it('takes several files at once from the picker, each with its own progress, one after another', async () => {
    const { sent, queue } = controlledSend();
    const { api, user } = setUp({}, queue);
    await screen.findByText('Amazing Grace');
    await user.upload(screen.getByLabelText('Add audio files'), [
      audioFile('hymn.wav', 'audio/wav'),
      audioFile('sermon.m4a', 'audio/mp4'),
    ]);
    const rows = screen.getAllByTestId('upload-row');
    expect(rows.map((r) => within(r).getByText(/\.(wav|m4a)$/).textContent)).toEqual([
      'hymn.wav',
      'sermon.m4a',
    ]);
    expect(sent.map((s) => s.file.name)).toEqual(['hymn.wav']);
    expect(within(rows[1]!).getByText('Waiting…')).toBeInTheDocument();

    sent[0]!.progress(0.4);
    expect(await within(rows[0]!).findByText('40%')).toBeInTheDocument();
    expect(screen.getByLabelText('Upload of hymn.wav')).toHaveAttribute('value', '0.4');
    expect(screen.getByLabelText('Upload of sermon.m4a')).toHaveAttribute('value', '0');

    sent[0]!.resolve(media({ id: 'm2', title: 'hymn', status: 'analysing' }));
    expect(await within(rows[0]!).findByText('Uploaded')).toBeInTheDocument();
    // The next file starts once the first is in, and the list is read again to show it.
    await waitFor(() => expect(sent.map((s) => s.file.name)).toEqual(['hymn.wav', 'sermon.m4a']));
    await waitFor(() => expect(api.calls('GET', '/api/library').length).toBeGreaterThanOrEqual(2));
    sent[1]!.progress(1);
    sent[1]!.resolve(media({ id: 'm3', title: 'sermon', status: 'analysing' }));
    expect(await within(rows[1]!).findByText('Uploaded')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear finished uploads' }));
    expect(screen.queryAllByTestId('upload-row')).toEqual([]);
  });

  it('takes files dropped on the drop zone', async () => {
    const { sent, queue } = controlledSend();
    setUp({}, queue);
    await screen.findByText('Amazing Grace');
    const zone = screen.getByTestId('library-drop-zone');
    const files = [audioFile('one.flac', 'audio/flac'), audioFile('two.opus', 'audio/ogg')];
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { files } });
    zone.dispatchEvent(drop);
    expect(await screen.findByText('one.flac')).toBeInTheDocument();
    expect(screen.getByText('two.opus')).toBeInTheDocument();
    expect(drop.defaultPrevented).toBe(true);
    expect(sent.map((s) => s.file.name)).toEqual(['one.flac']);
  });

  it("shows the station's refusal beside the file it refused, and goes on with the next", async () => {
    const { sent, queue } = controlledSend();
    const { user } = setUp({}, queue);
    await screen.findByText('Amazing Grace');
    await user.upload(screen.getByLabelText('Add audio files'), [
      audioFile('notes.mp3'),
      audioFile('good.mp3'),
    ]);
    const { ApiError } = await import('../../../lib/api-request');
    sent[0]!.reject(new ApiError(415, '{"message":"…"}', 'That file is not audio: it holds text.'));
    const [refused, next] = screen.getAllByTestId('upload-row');
    expect(await within(refused!).findByRole('alert')).toHaveTextContent(
      'That file is not audio: it holds text.',
    );
    expect(within(refused!).getByText('Refused')).toBeInTheDocument();
    await waitFor(() => expect(sent).toHaveLength(2));
    sent[1]!.reject(new TypeError('Failed to fetch'));
    expect(await within(next!).findByRole('alert')).toHaveTextContent('The station could not be reached');
  });
});

describe('Library tab: each item', () => {
  it('edits title, artist, album and kind in place and sends them with PATCH', async () => {
    sessionStorage.setItem('adminToken', 'staff-token');
    const { api, user } = setUp({
      'PATCH /api/library/m1': ({ body }) => ({ status: 200, body: media(body as Partial<MediaItem>) }),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Amazing Grace' }));
    const form = screen.getByRole('form', { name: 'Edit Amazing Grace' });
    expect(within(form).getByLabelText('Title')).toHaveValue('Amazing Grace');
    await user.clear(within(form).getByLabelText('Title'));
    await user.type(within(form).getByLabelText('Title'), 'Amazing Grace (live)');
    await user.clear(within(form).getByLabelText('Album'));
    await user.selectOptions(within(form).getByLabelText('Kind'), 'Station identification');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Library item saved')).toBeInTheDocument();
    const [patch] = api.calls('PATCH', '/api/library/m1');
    expect(patch!.body).toEqual({
      title: 'Amazing Grace (live)',
      artist: 'Grace Choir',
      album: '',
      isrc: '',
      label: '',
      composer: '',
      ccli_song_number: '',
      kind: 'station_id',
    });
    expect(patch!.headers.authorization).toBe('Bearer staff-token');
    expect(screen.queryByRole('form', { name: 'Edit Amazing Grace' })).toBeNull();
    await waitFor(() => expect(api.calls('GET', '/api/library').length).toBeGreaterThanOrEqual(2));
  });

  it('edits the licence fields: ISRC written with hyphens is sent as the standard writes it', async () => {
    const { api, user } = setUp({
      'PATCH /api/library/m1': ({ body }) => ({ status: 200, body: media(body as Partial<MediaItem>) }),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Amazing Grace' }));
    const form = screen.getByRole('form', { name: 'Edit Amazing Grace' });
    await user.type(within(form).getByLabelText('ISRC'), 'us-rc1-76-07839');
    await user.type(within(form).getByLabelText('Label'), 'Hope Records');
    await user.type(within(form).getByLabelText('Composer / songwriters'), 'John Newton');
    await user.type(within(form).getByLabelText('CCLI song number'), '22025');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Library item saved')).toBeInTheDocument();
    expect(api.calls('PATCH', '/api/library/m1')[0]!.body).toMatchObject({
      isrc: 'USRC17607839',
      label: 'Hope Records',
      composer: 'John Newton',
      ccli_song_number: '22025',
    });
  });

  it('refuses a malformed ISRC in the form before sending it', async () => {
    const { api, user } = setUp();
    await user.click(await screen.findByRole('button', { name: 'Edit Amazing Grace' }));
    const form = screen.getByRole('form', { name: 'Edit Amazing Grace' });
    await user.type(within(form).getByLabelText('ISRC'), 'ABC');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText(/ISRC must be 12 characters/)).toBeInTheDocument();
    expect(api.calls('PATCH', '/api/library/m1')).toEqual([]);
  });

  it('sets a label and songwriters on every item shown at once', async () => {
    const { api, user } = setUp({
      [LIST]: { status: 200, body: listOf(media(), media({ id: 'm2', title: 'It Is Well' })) },
      'POST /api/library/bulk': { status: 200, body: { updated: 2 } },
    });
    await user.click(await screen.findByRole('button', { name: 'Change all 2 shown' }));
    const form = screen.getByRole('form', { name: 'Change every item shown' });
    await user.type(within(form).getByLabelText('Label'), 'Zion Music');
    await user.type(within(form).getByLabelText('Composer / songwriters'), 'Horatio Spafford');
    await user.click(within(form).getByRole('button', { name: 'Save on 2 items' }));
    expect(await screen.findByText('Library items saved')).toBeInTheDocument();
    expect(api.calls('POST', '/api/library/bulk')[0]!.body).toEqual({
      ids: ['m1', 'm2'],
      changes: { label: 'Zion Music', composer: 'Horatio Spafford' },
    });
  });

  it('keeps the title required and shows what the station refused', async () => {
    const { api, user } = setUp({
      'PATCH /api/library/m1': {
        status: 400,
        body: { message: 'Artist is too long (at most 200 characters)' },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Amazing Grace' }));
    const form = screen.getByRole('form', { name: 'Edit Amazing Grace' });
    await user.clear(within(form).getByLabelText('Title'));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Title is required')).toBeInTheDocument();
    expect(api.calls('PATCH', '/api/library/m1')).toEqual([]);
    await user.type(within(form).getByLabelText('Title'), 'Amazing');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Artist is too long (at most 200 characters)')).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('heading', { name: 'Amazing Grace' })).toBeInTheDocument();
  });

  it('plays a preview from the short-lived address the station gives', async () => {
    const { api, user } = setUp({
      'POST /api/library/m1/preview': { status: 200, body: { url: '/api/library/m1/audio?t=abc' } },
    });
    await user.click(await screen.findByRole('button', { name: 'Preview Amazing Grace' }));
    const player = await screen.findByLabelText('Preview of Amazing Grace');
    expect(player.tagName).toBe('AUDIO');
    expect(player).toHaveAttribute('src', '/api/library/m1/audio?t=abc');
    expect(api.calls('POST', '/api/library/m1/preview')).toHaveLength(1);
  });

  it('uploads artwork as multipart field image and shows it', async () => {
    let artwork: string | null = null;
    const { api, user } = setUp({
      [LIST]: () => ({ status: 200, body: listOf(media({ artwork_url: artwork })) }),
      'POST /api/library/m1/artwork': () => {
        artwork = '/uploads/artwork/m1.webp';
        return { status: 200, body: media({ artwork_url: artwork }) };
      },
    });
    await screen.findByText('Amazing Grace');
    await user.upload(
      screen.getByLabelText('Artwork image for Amazing Grace'),
      new File([new Uint8Array(64)], 'cover.png', { type: 'image/png' }),
    );
    expect(await screen.findByAltText('Artwork for Amazing Grace')).toHaveAttribute(
      'src',
      '/uploads/artwork/m1.webp',
    );
    const [post] = api.calls('POST', '/api/library/m1/artwork');
    expect((post!.body as FormData).get('image')).toBeInstanceOf(File);
  });

  it("deletes after a confirmation, and shows the station's refusal while the item is in use", async () => {
    const { api, user } = setUp({
      'DELETE /api/library/m1': {
        status: 409,
        body: { message: 'Amazing Grace is in the playlist Sunday Morning: take it out first.' },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete Amazing Grace' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    const row = screen.getByTestId('media-row');
    expect(await within(row).findByRole('alert')).toHaveTextContent(
      'Amazing Grace is in the playlist Sunday Morning: take it out first.',
    );
    expect(api.calls('DELETE', '/api/library/m1')).toHaveLength(1);

    api.setRoute('DELETE /api/library/m1', { status: 204 });
    api.setRoute(LIST, { status: 200, body: listOf() });
    await user.click(screen.getByRole('button', { name: 'Delete Amazing Grace' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted from the library')).toBeInTheDocument();
    expect(await screen.findByText('The library is empty: upload audio above.')).toBeInTheDocument();
  });

  it('publishes a live recording waiting as a draft in one click, and shows why when the station refuses', async () => {
    const draft = media({
      id: 'd1',
      title: 'Sunday Service (29 November 2026)',
      kind: 'sermon',
      draft: true,
    });
    const { api, user } = setUp({
      [LIST]: { status: 200, body: listOf(draft, media()) },
      'POST /api/library/d1/publish': {
        status: 409,
        body: { message: 'This recording is still being measured. Publish it once its loudness shows.' },
      },
    });
    const [draftRow, other] = await screen.findAllByTestId('media-row');
    expect(within(draftRow!).getByText('Draft')).toBeInTheDocument();
    expect(within(other!).queryByText('Draft')).not.toBeInTheDocument();
    expect(within(other!).queryByRole('button', { name: /^Publish/ })).not.toBeInTheDocument();

    await user.click(within(draftRow!).getByRole('button', { name: `Publish ${draft.title}` }));
    expect(await within(draftRow!).findByRole('alert')).toHaveTextContent(
      'This recording is still being measured. Publish it once its loudness shows.',
    );

    api.setRoute('POST /api/library/d1/publish', {
      status: 201,
      body: {
        item: { ...draft, draft: false },
        featured: { id: 'f1', title: draft.title, audioUrl: '/media/d1' },
      },
    });
    api.setRoute(LIST, { status: 200, body: listOf({ ...draft, draft: false }, media()) });
    await user.click(within(draftRow!).getByRole('button', { name: `Publish ${draft.title}` }));
    expect(await screen.findByText('Published as a featured sermon')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Draft')).not.toBeInTheDocument());
    expect(api.calls('POST', '/api/library/d1/publish')).toHaveLength(2);
  });
});
