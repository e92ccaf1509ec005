import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MediaItem } from '../../../../common/library';
import type { PlaylistDetail } from '../../../../common/playlists';
import { fakeStaffApi } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { PlaylistsTab } from './playlists-tab';

afterEach(() => vi.unstubAllGlobals());

const WARNING =
  'Only 2 songs (7 minutes of music): with no repeat of a title within 120 minutes this playlist needs at least 120 minutes of music. Add songs or shorten that time, or titles will repeat sooner.';

function playlist(overrides: Partial<PlaylistDetail> = {}): PlaylistDetail {
  return {
    id: 'p1',
    name: 'Morning Worship',
    order: 'shuffle',
    in_rotation: true,
    weight: 3,
    insert_kind: 'station_id',
    insert_every_songs: 4,
    insert_every_minutes: null,
    no_repeat_title_minutes: 120,
    no_repeat_artist_minutes: 30,
    item_count: 2,
    ready_count: 2,
    duration_seconds: 427,
    warning: WARNING,
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-01T10:00:00.000Z',
    items: [
      {
        media_id: 'm1',
        title: 'Amazing Grace',
        artist: 'Grace Choir',
        kind: 'music',
        status: 'ready',
        duration_seconds: 187,
      },
      {
        media_id: 'm2',
        title: 'Be Thou My Vision',
        artist: 'St. Mary Choir',
        kind: 'music',
        status: 'ready',
        duration_seconds: 240,
      },
    ],
    ...overrides,
  };
}

function media(id: string, title: string): MediaItem {
  return {
    id,
    title,
    artist: 'Grace Choir',
    album: '',
    isrc: '',
    label: '',
    composer: '',
    ccli_song_number: '',
    kind: 'music',
    status: 'ready',
    error: null,
    original_name: `${id}.mp3`,
    format: 'mp3',
    sample_rate: 44100,
    channels: 2,
    size_bytes: 1000,
    duration_seconds: 200,
    loudness_lufs: -14,
    true_peak_dbtp: -1,
    cue_in_seconds: 0,
    cue_out_seconds: 200,
    artwork_url: null,
    subtitle_languages: [],
    draft: false,
    created_at: '2026-11-01T10:00:00.000Z',
  };
}

const { items: _items, ...summary } = playlist();

function setUp(routes: Parameters<typeof fakeStaffApi>[0] = {}) {
  // jsdom has no ResizeObserver; Radix measures the form's switch with one.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  const api = fakeStaffApi({
    'GET /api/admin/playlists': { status: 200, body: { playlists: [summary] } },
    'GET /api/admin/playlists/p1': { status: 200, body: playlist() },
    'GET /api/library': {
      status: 200,
      body: { items: [media('m1', 'Amazing Grace'), media('m3', 'How Great Thou Art')], total: 2 },
    },
    ...routes,
  });
  const user = userEvent.setup({ delay: null });
  renderWithProviders(<PlaylistsTab />);
  return { api, user };
}

async function openEditor(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Edit Morning Worship' }));
  return screen.findByRole('form', { name: 'Settings of Morning Worship' });
}

describe('Playlists tab', () => {
  it('lists each playlist with its order, rotation weight, length and rules warning', async () => {
    setUp();
    const row = await screen.findByTestId('playlist-row');
    expect(within(row).getByText('Morning Worship')).toBeInTheDocument();
    expect(within(row).getByText('Shuffled')).toBeInTheDocument();
    expect(within(row).getByText('In rotation · weight 3')).toBeInTheDocument();
    expect(row).toHaveTextContent('2 items · 7:07');
    expect(within(row).getByTestId('playlist-warning')).toHaveTextContent(WARNING);
  });

  it('creates a playlist, showing the station’s refusal of a taken name', async () => {
    const { api, user } = setUp({
      'POST /api/admin/playlists': (request) =>
        (request.body as { name: string }).name === 'Morning Worship'
          ? {
              status: 409,
              body: {
                message: "A playlist named 'Morning Worship' already exists. Please choose another name.",
              },
            }
          : { status: 201, body: playlist({ id: 'p2', name: 'Evening Hymns', items: [], item_count: 0 }) },
      'GET /api/admin/playlists/p2': {
        status: 200,
        body: playlist({ id: 'p2', name: 'Evening Hymns', items: [] }),
      },
    });
    await screen.findByTestId('playlist-row');
    await user.click(screen.getByRole('button', { name: 'Create playlist' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Name is required');
    expect(api.calls('POST', '/api/admin/playlists')).toHaveLength(0);

    await user.type(screen.getByLabelText('New playlist'), 'Morning Worship');
    await user.click(screen.getByRole('button', { name: 'Create playlist' }));
    expect(await screen.findByText(/already exists/)).toBeInTheDocument();

    await user.clear(screen.getByLabelText('New playlist'));
    await user.type(screen.getByLabelText('New playlist'), 'Evening Hymns');
    await user.click(screen.getByRole('button', { name: 'Create playlist' }));
    expect(await screen.findByRole('form', { name: 'Settings of Evening Hymns' })).toBeInTheDocument();
    expect(api.calls('POST', '/api/admin/playlists').at(-1)!.body).toEqual({ name: 'Evening Hymns' });
  });

  it('saves the settings, refusing out-of-range numbers before sending', async () => {
    const { api, user } = setUp({
      'PATCH /api/admin/playlists/p1': (request) => ({
        status: 200,
        body: { ...playlist(), ...(request.body as object) },
      }),
    });
    const form = await openEditor(user);
    const weight = within(form).getByLabelText('Weight in the rotation');
    await user.clear(weight);
    await user.type(weight, '101');
    await user.click(within(form).getByRole('button', { name: 'Save settings' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Weight must be a whole number from 1 to 100',
    );
    expect(api.calls('PATCH', '/api/admin/playlists/p1')).toHaveLength(0);

    await user.clear(weight);
    await user.type(weight, '5');
    await user.selectOptions(within(form).getByLabelText('Order'), 'in_order');
    await user.selectOptions(within(form).getByLabelText('Insert between songs'), 'jingle');
    const minutes = within(form).getByLabelText('Insert every … minutes');
    await user.type(minutes, '30');
    await user.click(within(form).getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(api.calls('PATCH', '/api/admin/playlists/p1')).toHaveLength(1));
    expect(api.calls('PATCH', '/api/admin/playlists/p1')[0]!.body).toEqual({
      name: 'Morning Worship',
      order: 'in_order',
      in_rotation: true,
      weight: 5,
      insert_kind: 'jingle',
      insert_every_songs: 4,
      insert_every_minutes: 30,
      no_repeat_title_minutes: 120,
      no_repeat_artist_minutes: 30,
    });
  });

  it('reorders, removes and adds items, sending the whole list in order', async () => {
    const { api, user } = setUp({
      'PUT /api/admin/playlists/p1/items': { status: 200, body: playlist() },
    });
    await openEditor(user);
    const items = await screen.findAllByTestId('playlist-item');
    expect(items.map((item) => within(item).getByText(/Amazing|Be Thou/).textContent)).toEqual([
      'Amazing Grace',
      'Be Thou My Vision',
    ]);
    expect(screen.getByRole('button', { name: 'Move Amazing Grace up' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Move Amazing Grace down' }));
    await waitFor(() => expect(api.calls('PUT', '/api/admin/playlists/p1/items')).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Remove Be Thou My Vision from the playlist' }));
    await waitFor(() => expect(api.calls('PUT', '/api/admin/playlists/p1/items')).toHaveLength(2));

    // The library search: an item already there says so, another can be added.
    const choices = await screen.findAllByTestId('library-choice');
    expect(choices[0]).toHaveTextContent('In the playlist');
    await user.click(screen.getByRole('button', { name: 'Add How Great Thou Art to Morning Worship' }));
    await waitFor(() => expect(api.calls('PUT', '/api/admin/playlists/p1/items')).toHaveLength(3));
    expect(api.calls('PUT', '/api/admin/playlists/p1/items').map((call) => call.body)).toEqual([
      { media_ids: ['m2', 'm1'] },
      { media_ids: ['m1'] },
      { media_ids: ['m1', 'm2', 'm3'] },
    ]);
    await user.type(screen.getByLabelText('Add from the library'), 'great');
    await waitFor(() =>
      expect(api.requests.some((request) => request.path.includes('search=great'))).toBe(true),
    );
  });

  it('deletes a playlist after a confirmation, and shows why when the station refuses', async () => {
    let refuse = true;
    const { api, user } = setUp({
      'DELETE /api/admin/playlists/p1': () =>
        refuse
          ? { status: 409, body: { message: "The programme 'Morning Devotion' plays this playlist." } }
          : { status: 200, body: { ok: true } },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete Morning Worship' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText("The programme 'Morning Devotion' plays this playlist."),
    ).toBeInTheDocument();
    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Delete Morning Worship' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.calls('DELETE', '/api/admin/playlists/p1')).toHaveLength(2));
  });
});
