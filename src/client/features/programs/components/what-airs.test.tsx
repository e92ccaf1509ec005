import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MediaItem } from '../../../../common/library';
import {
  DEFAULT_AIRS,
  UPCOMING_PATH,
  type Airs,
  type OneOff,
  type ScheduledProgram,
  type UpcomingEntry,
} from '../../../../common/programs';
import { fakeStaffApi, type FakeAnswer, type FakeRequest } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { ScheduleTab } from './schedule-tab';

// Forms filled key by key in a dialog: slower than most component tests on a busy machine.
vi.setConfig({ testTimeout: 15_000 });

const TODAY = '2026-11-23'; // a Monday; Africa/Lagos is UTC+1 all year

const entry = (over: Partial<ScheduledProgram>): ScheduledProgram => ({
  id: 'p',
  title: 'Programme',
  speaker: 'Worship Team',
  ministryFocus: null,
  description: null,
  startTime: '12:00',
  duration: 60,
  dayOfWeek: 'monday',
  isActive: true,
  airs: DEFAULT_AIRS,
  overlapsWith: [],
  ...over,
});

const media = (over: Partial<MediaItem>): MediaItem => ({
  id: 'm',
  title: 'Recording',
  artist: 'Pastor James',
  album: '',
  isrc: '',
  label: '',
  composer: '',
  ccli_song_number: '',
  kind: 'sermon',
  status: 'ready',
  error: null,
  original_name: 'recording.mp3',
  format: 'mp3',
  sample_rate: 44100,
  channels: 2,
  size_bytes: 1000,
  duration_seconds: 2520,
  loudness_lufs: -16,
  true_peak_dbtp: -1,
  cue_in_seconds: 0,
  cue_out_seconds: 2520,
  artwork_url: null,
  subtitle_languages: [],
  draft: false,
  created_at: '2026-11-20T10:00:00.000Z',
  ...over,
});

const PLAYLISTS = [
  { id: 'pl-worship', name: 'Worship Mix' },
  { id: 'pl-hymns', name: 'Evening Hymns' },
];
const PRESENTERS = [{ id: 'u-ruth', username: 'Pastor Ruth' }];
const LIBRARY = [
  media({ id: 'm-grace', title: 'Amazing Grace Sermon', artist: 'Pastor James' }),
  media({ id: 'm-hope', title: 'Hope Devotion', kind: 'devotion', duration_seconds: 600 }),
];

const upcomingEntry = (over: Partial<UpcomingEntry>): UpcomingEntry => ({
  at: '2026-11-23T10:00:00.000Z',
  until: '2026-11-23T10:04:00.000Z',
  kind: 'item',
  title: 'Song',
  artist: null,
  mediaId: null,
  programme: null,
  flags: [],
  ...over,
});

/** Next 24 hours from 11:00 station time: a song, Midday Word (a sermon that overruns), a gap, Sunday's live. */
const UPCOMING = {
  timeZone: 'Africa/Lagos',
  from: '2026-11-23T10:00:00.000Z',
  to: '2026-11-24T10:00:00.000Z',
  entries: [
    upcomingEntry({ title: 'How Great Thou Art', artist: 'Choir', mediaId: 'm-song' }),
    upcomingEntry({
      at: '2026-11-23T11:00:00.000Z',
      until: '2026-11-23T11:42:00.000Z',
      title: 'Amazing Grace Sermon',
      artist: 'Pastor James',
      mediaId: 'm-grace',
      programme: { id: 'p1', title: 'Midday Word' },
    }),
    upcomingEntry({
      at: '2026-11-23T11:42:00.000Z',
      until: '2026-11-23T12:05:00.000Z',
      title: 'Old Rugged Cross',
      artist: 'Choir',
      mediaId: 'm-cross',
      programme: { id: 'p1', title: 'Midday Word' },
      flags: [{ kind: 'overrun', message: 'Runs 5 minutes past the end of Midday Word.' }],
    }),
    upcomingEntry({
      at: '2026-11-23T22:30:00.000Z',
      until: '2026-11-23T23:30:00.000Z',
      kind: 'gap',
      title: 'Nothing to play',
      flags: [{ kind: 'gap', message: 'Nothing to play for 60 minutes: the rotation has no music.' }],
    }),
    upcomingEntry({
      at: '2026-11-24T06:00:00.000Z',
      until: '2026-11-24T07:00:00.000Z',
      kind: 'live',
      title: 'Morning Prayer',
      programme: { id: 'p5', title: 'Morning Prayer' },
      flags: [{ kind: 'no_presenter', message: 'No presenter is set for Morning Prayer.' }],
    }),
  ],
};

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

type Routes = Record<string, FakeAnswer | ((request: FakeRequest) => FakeAnswer)>;

/** A station with a few programmes, playlists, presenters and library items; routes can be replaced. */
function setUp(over: Routes = {}, programs: ScheduledProgram[] = []) {
  // jsdom has no ResizeObserver; Radix measures the form's switch with one.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  let week = programs.length
    ? programs
    : [entry({ id: 'p1', title: 'Midday Word', speaker: 'Pastor James' })];
  let oneOffs: OneOff[] = [];
  const body = (r: FakeRequest) => r.body as Record<string, unknown>;
  const api = fakeStaffApi({
    'POST /api/programs/check': { status: 200, body: { overlaps: [] } },
    'POST /api/programs/p1/check': { status: 200, body: { overlaps: [] } },
    'POST /api/programs/one-offs/check': { status: 200, body: { overlaps: [] } },
    'GET /api/programs': () => ({
      status: 200,
      body: { timeZone: 'Africa/Lagos', today: TODAY, programs: week },
    }),
    'GET /api/programs/one-offs': () => ({ status: 200, body: oneOffs }),
    'POST /api/programs': (r) => {
      const { confirmOverlap: _confirm, ...fields } = body(r);
      const saved = entry({ ...(fields as Partial<ScheduledProgram>), id: `p${week.length + 1}` });
      week = [...week, saved];
      return { status: 201, body: saved };
    },
    'PATCH /api/programs/p1': (r) => {
      const { confirmOverlap: _confirm, ...fields } = body(r);
      week = week.map((p) => (p.id === 'p1' ? { ...p, ...(fields as Partial<ScheduledProgram>) } : p));
      return { status: 200, body: week.find((p) => p.id === 'p1') };
    },
    'POST /api/programs/one-offs': (r) => {
      const { confirmOverlap: _confirm, ...fields } = body(r);
      const saved = {
        id: `o${oneOffs.length + 1}`,
        programId: null,
        title: null,
        speaker: null,
        ministryFocus: null,
        description: null,
        startTime: null,
        duration: null,
        airs: null,
        replaces: { title: 'Midday Word', startTime: '12:00', duration: 60 },
        ...(fields as Partial<OneOff>),
      } as OneOff;
      oneOffs = [...oneOffs, saved];
      return { status: 201, body: saved };
    },
    'GET /api/admin/playlists': { status: 200, body: { playlists: PLAYLISTS } },
    'GET /api/admin/presenters': { status: 200, body: PRESENTERS },
    'GET /api/library': (r) => {
      const search = new URL(r.path, 'http://station.test').searchParams.get('search') ?? '';
      const items = LIBRARY.filter((m) => m.title.toLowerCase().includes(search.toLowerCase()));
      return { status: 200, body: { items, total: items.length } };
    },
    [`GET ${UPCOMING_PATH}`]: { status: 200, body: UPCOMING },
    ...over,
  });
  const user = userEvent.setup({ delay: null });
  const view = renderWithProviders(<ScheduleTab />);
  return { api, user, ...view };
}

/** The toast after a save: a check and a save in turn, slow on a busy machine. */
const saved = (text: string) => screen.findByText(text);

type User = ReturnType<typeof userEvent.setup>;
const form = () => screen.findByRole('form', { name: /^(Add programme|Edit |Replace )/ });
const whatAirs = (f: HTMLElement) => within(f).getByRole('group', { name: 'What airs' });

/** Opens "Add programme" on Wednesday with a title and a start time filled in. */
async function openNewProgramme(user: User) {
  await screen.findByRole('list', { name: 'Monday programmes' });
  await user.click(screen.getByRole('button', { name: 'Add a programme on Wednesday' }));
  const f = await form();
  await user.type(within(f).getByLabelText('Title'), 'Wednesday Word');
  fireEvent.change(within(f).getByLabelText('Start time'), { target: { value: '09:00' } });
  return f;
}

const sentAirs = (api: ReturnType<typeof setUp>['api']) =>
  (api.calls('POST', '/api/programs')[0]!.body as { airs: unknown }).airs;

describe('What airs: each kind sends its choice', () => {
  const cases: { kind: string; choose: (user: User, f: HTMLElement) => Promise<void>; airs: Airs }[] = [
    {
      kind: 'a playlist, after the current song, then another playlist',
      choose: async (user, f) => {
        const group = whatAirs(f);
        await user.selectOptions(within(group).getByLabelText('Plays'), 'A playlist');
        const playlist = within(group).getByLabelText('Playlist');
        await waitFor(() => expect(playlist).toBeEnabled());
        await user.selectOptions(playlist, 'Worship Mix');
        await user.click(within(group).getByRole('radio', { name: 'After the current song' }));
        await user.selectOptions(within(group).getByLabelText('Then play'), 'Evening Hymns');
      },
      airs: {
        kind: 'playlist',
        playlistId: 'pl-worship',
        start: 'after_current',
        fillPlaylistId: 'pl-hymns',
      },
    },
    {
      kind: 'a recording found by searching the library, let to finish',
      choose: async (user, f) => {
        const group = whatAirs(f);
        await user.selectOptions(within(group).getByLabelText('Plays'), 'A recording from the library');
        await user.type(within(group).getByLabelText('Search the library'), 'grace');
        const recording = within(group).getByLabelText('Recording');
        await waitFor(() => {
          expect(within(recording).queryByRole('option', { name: /Hope Devotion/ })).toBeNull();
          expect(within(recording).getByRole('option', { name: /Amazing Grace Sermon/ })).toHaveTextContent(
            'Amazing Grace Sermon · Pastor James (Sermon, 42 min)',
          );
        });
        await user.selectOptions(recording, 'm-grace');
        await user.click(within(group).getByRole('radio', { name: 'Let it finish' }));
      },
      airs: {
        kind: 'recording',
        mediaId: 'm-grace',
        overrun: 'finish',
        start: 'on_time',
        fillPlaylistId: null,
      },
    },
    {
      kind: 'the newest devotion, faded at the end, then a playlist',
      choose: async (user, f) => {
        const group = whatAirs(f);
        await user.selectOptions(within(group).getByLabelText('Plays'), 'The newest recording of a kind');
        await user.selectOptions(within(group).getByLabelText('Newest recording of kind'), 'Devotion');
        expect(within(group).getByRole('radio', { name: 'Fade at the end' })).toBeChecked();
        const fill = within(group).getByLabelText('Then play');
        await waitFor(() => expect(fill).toBeEnabled());
        await user.selectOptions(fill, 'Worship Mix');
      },
      airs: {
        kind: 'newest',
        mediaKind: 'devotion',
        overrun: 'fade',
        start: 'on_time',
        fillPlaylistId: 'pl-worship',
      },
    },
    {
      kind: 'live from a presenter (only presenter accounts offered)',
      choose: async (user, f) => {
        const group = whatAirs(f);
        await user.selectOptions(within(group).getByLabelText('Plays'), 'Live from a presenter');
        const presenter = within(group).getByLabelText('Presenter');
        await waitFor(() => expect(presenter).toBeEnabled());
        expect(
          within(presenter)
            .getAllByRole('option')
            .map((o) => o.textContent),
        ).toEqual(['Choose a presenter', 'Pastor Ruth']);
        await user.selectOptions(presenter, 'Pastor Ruth');
      },
      airs: { kind: 'live', presenterId: 'u-ruth', start: 'on_time', fillPlaylistId: null },
    },
  ];

  it.each(cases)('$kind', async ({ choose, airs }) => {
    const { api, user } = setUp();
    const f = await openNewProgramme(user);
    await choose(user, f);
    await user.click(within(f).getByRole('button', { name: 'Add programme' }));
    expect(await saved('Programme added')).toBeInTheDocument();
    expect(sentAirs(api)).toEqual(airs);
    expect((api.calls('POST', '/api/programs/check')[0]!.body as { airs: unknown }).airs).toEqual(airs);
  });

  it('keeps each choice when staff switch kind and back; only the chosen kind is sent', async () => {
    const { api, user } = setUp();
    const f = await openNewProgramme(user);
    const group = whatAirs(f);
    await user.selectOptions(within(group).getByLabelText('Plays'), 'Live from a presenter');
    await waitFor(() => expect(within(group).getByLabelText('Presenter')).toBeEnabled());
    await user.selectOptions(within(group).getByLabelText('Presenter'), 'Pastor Ruth');
    await user.selectOptions(within(group).getByLabelText('Plays'), 'A playlist');
    await waitFor(() => expect(within(group).getByLabelText('Playlist')).toBeEnabled());
    await user.selectOptions(within(group).getByLabelText('Playlist'), 'Evening Hymns');
    await user.selectOptions(within(group).getByLabelText('Plays'), 'Live from a presenter');
    expect(within(group).getByLabelText('Presenter')).toHaveValue('u-ruth');
    await user.click(within(f).getByRole('button', { name: 'Add programme' }));
    expect(await saved('Programme added')).toBeInTheDocument();
    expect(sentAirs(api)).toEqual({
      kind: 'live',
      presenterId: 'u-ruth',
      start: 'on_time',
      fillPlaylistId: null,
    });
  });

  it.each([
    ['A playlist', 'Choose a playlist'],
    ['A recording from the library', 'Choose a recording from the library'],
    ['Live from a presenter', 'Choose a presenter'],
  ])('%s with nothing chosen says "%s" and sends nothing', async (kind, message) => {
    const { api, user } = setUp();
    const f = await openNewProgramme(user);
    await user.selectOptions(within(whatAirs(f)).getByLabelText('Plays'), kind);
    await user.click(within(f).getByRole('button', { name: 'Add programme' }));
    expect(await within(f).findByRole('alert')).toHaveTextContent(message);
    expect(api.calls('POST', '/api/programs/check')).toEqual([]);
    expect(api.calls('POST', '/api/programs')).toEqual([]);
  });

  it('a one-off replacement airs its own choice', async () => {
    const { api, user } = setUp();
    const list = await screen.findByRole('list', { name: 'Programmes on Monday 23 November 2026' });
    await user.click(within(list).getByRole('button', { name: 'Replace Midday Word' }));
    const f = await form();
    const group = whatAirs(f);
    await user.selectOptions(within(group).getByLabelText('Plays'), 'The newest recording of a kind');
    await user.click(within(group).getByRole('radio', { name: 'After the current song' }));
    await user.click(within(f).getByRole('button', { name: 'Save replacement' }));
    expect(await saved('Replacement saved')).toBeInTheDocument();
    expect(api.calls('POST', '/api/programs/one-offs')[0]!.body).toMatchObject({
      kind: 'replace',
      programId: 'p1',
      airs: {
        kind: 'newest',
        mediaKind: 'sermon',
        overrun: 'fade',
        start: 'after_current',
        fillPlaylistId: null,
      },
    });
    expect(await within(list).findByText('Airs: newest sermon')).toBeInTheDocument();
  });

  it('a special service can be live from a presenter', async () => {
    const { api, user } = setUp();
    await screen.findByRole('list', { name: /^Programmes on/ });
    await user.click(screen.getByRole('button', { name: 'Add a special service' }));
    const f = await screen.findByRole('form', { name: 'Add a special service' });
    await user.type(within(f).getByLabelText('Title'), 'Carol Service');
    fireEvent.change(within(f).getByLabelText('Start time'), { target: { value: '18:00' } });
    const group = whatAirs(f);
    await user.selectOptions(within(group).getByLabelText('Plays'), 'Live from a presenter');
    await waitFor(() => expect(within(group).getByLabelText('Presenter')).toBeEnabled());
    await user.selectOptions(within(group).getByLabelText('Presenter'), 'u-ruth');
    await user.click(within(f).getByRole('button', { name: 'Add special service' }));
    expect(await saved('Special service added')).toBeInTheDocument();
    expect(api.calls('POST', '/api/programs/one-offs')[0]!.body).toMatchObject({
      kind: 'add',
      title: 'Carol Service',
      airs: { kind: 'live', presenterId: 'u-ruth', start: 'on_time', fillPlaylistId: null },
    });
    const list = screen.getByRole('list', { name: 'Programmes on Monday 23 November 2026' });
    await waitFor(() =>
      expect(within(list).getAllByRole('listitem').at(-1)).toHaveTextContent(
        /^18:00–19:00 Carol ServiceSpecialLive: Pastor Ruth/,
      ),
    );
  });
});

describe('What airs: the week and editing', () => {
  const week = [
    entry({
      id: 'p1',
      title: 'Midday Word',
      airs: { kind: 'playlist', playlistId: 'pl-worship', start: 'on_time', fillPlaylistId: null },
    }),
    entry({
      id: 'p2',
      title: 'Devotion Time',
      startTime: '07:00',
      airs: { kind: 'newest', mediaKind: 'sermon', overrun: 'fade', start: 'on_time', fillPlaylistId: null },
    }),
    entry({
      id: 'p3',
      title: 'Sunday Service',
      dayOfWeek: 'sunday',
      airs: { kind: 'live', presenterId: 'u-ruth', start: 'after_current', fillPlaylistId: 'pl-hymns' },
    }),
    entry({ id: 'p4', title: 'Just Listed', dayOfWeek: 'friday' }),
  ];

  it('says in a line what each programme airs', async () => {
    setUp({}, week);
    const monday = await screen.findByRole('list', { name: 'Monday programmes' });
    const [midday, devotion] = within(monday).getAllByTestId('schedule-entry');
    expect(devotion).toHaveTextContent('Airs: newest sermon');
    expect(await within(midday!).findByText('Airs: playlist Worship Mix')).toBeInTheDocument();
    const sunday = within(screen.getByRole('list', { name: 'Sunday programmes' })).getByTestId(
      'schedule-entry',
    );
    expect(await within(sunday).findByText('Live: Pastor Ruth')).toBeInTheDocument();
    const friday = within(screen.getByRole('list', { name: 'Friday programmes' })).getByTestId(
      'schedule-entry',
    );
    expect(friday).not.toHaveTextContent(/Airs:|Live:/);
  });

  it('opens a programme with its choice and saves a change to it', async () => {
    const { api, user } = setUp({}, week);
    await screen.findByRole('list', { name: 'Monday programmes' });
    await user.click(screen.getByRole('button', { name: 'Edit Midday Word' }));
    const f = await form();
    const group = whatAirs(f);
    expect(within(group).getByLabelText('Plays')).toHaveValue('playlist');
    await waitFor(() => expect(within(group).getByLabelText('Playlist')).toHaveValue('pl-worship'));
    expect(within(group).getByRole('radio', { name: 'On time (fade what is playing)' })).toBeChecked();
    await user.selectOptions(within(group).getByLabelText('Playlist'), 'Evening Hymns');
    await user.click(within(f).getByRole('button', { name: 'Save changes' }));
    expect(await saved('Programme updated')).toBeInTheDocument();
    expect((api.calls('PATCH', '/api/programs/p1')[0]!.body as { airs: unknown }).airs).toEqual({
      kind: 'playlist',
      playlistId: 'pl-hymns',
      start: 'on_time',
      fillPlaylistId: null,
    });
    expect(await screen.findByText('Airs: playlist Evening Hymns')).toBeInTheDocument();
  });
});

describe('What airs: before any playlist is made', () => {
  it('says "No playlists yet" when the station has none, and the rotation still fills', async () => {
    const { api, user } = setUp({
      'GET /api/admin/playlists': { status: 200, body: { playlists: [] } },
    });
    const f = await openNewProgramme(user);
    const group = whatAirs(f);
    await user.selectOptions(within(group).getByLabelText('Plays'), 'A playlist');
    expect(await within(group).findByText('No playlists yet')).toBeInTheDocument();
    expect(within(group).getByLabelText('Playlist')).toBeDisabled();
    expect(within(within(group).getByLabelText('Then play')).getAllByRole('option')).toHaveLength(1);
    await user.selectOptions(within(group).getByLabelText('Plays'), 'The newest recording of a kind');
    expect(within(group).getByLabelText('Then play')).toHaveValue('');
    await user.click(within(f).getByRole('button', { name: 'Add programme' }));
    expect(await saved('Programme added')).toBeInTheDocument();
    expect(sentAirs(api)).toMatchObject({ kind: 'newest', fillPlaylistId: null });
  });

  it('says so when the playlists cannot be loaded for another reason', async () => {
    const { user } = setUp({ 'GET /api/admin/playlists': { status: 500, body: { message: 'Broken' } } });
    const f = await openNewProgramme(user);
    await user.selectOptions(within(whatAirs(f)).getByLabelText('Plays'), 'A playlist');
    expect(await within(f).findAllByText('The playlists could not be loaded.')).not.toHaveLength(0);
    expect(within(f).queryByText('No playlists yet')).toBeNull();
  });

  it('says "No presenters yet" when no account has the presenter role', async () => {
    const { user } = setUp({ 'GET /api/admin/presenters': { status: 200, body: [] } });
    const f = await openNewProgramme(user);
    await user.selectOptions(within(whatAirs(f)).getByLabelText('Plays'), 'Live from a presenter');
    expect(await within(f).findByText(/^No presenters yet/)).toBeInTheDocument();
  });
});

describe('Next 24 hours', () => {
  const view = () => screen.findByRole('region', { name: 'Next 24 hours' });

  it('lists what airs item by item in station time, by programme, with the problems flagged', async () => {
    const { api } = setUp();
    const next = await view();
    const items = await within(next).findAllByTestId('upcoming-entry');
    expect(items).toHaveLength(5);
    expect(items[0]).toHaveTextContent('11:00–11:04How Great Thou ArtChoir');
    // The scrolling list takes the keyboard's focus (so arrow keys scroll it) and says what it is.
    const scroller = within(next).getByRole('region', { name: 'Next 24 hours by day' });
    expect(scroller).toHaveClass('overflow-y-auto');
    expect(scroller).toHaveAttribute('tabindex', '0');
    expect(scroller).toContainElement(items[0]!);
    const midday = within(next).getByRole('list', { name: 'Midday Word, 12:00–13:05' });
    expect(
      within(midday)
        .getAllByTestId('upcoming-entry')
        .map((e) => e.textContent),
    ).toEqual([
      '12:00–12:42Amazing Grace SermonPastor James',
      '12:42–13:05Old Rugged CrossChoirWarning: Runs 5 minutes past the end of Midday Word.',
    ]);
    expect(within(next).getByRole('list', { name: 'Default rotation, 11:00–11:04' })).toBeInTheDocument();
    const overrun = items[2]!;
    expect(
      within(overrun).getByText('Runs 5 minutes past the end of Midday Word.').closest('li'),
    ).toHaveClass('bg-red-50');
    expect(items[3]).toHaveAttribute('data-kind', 'gap');
    expect(items[3]).toHaveTextContent('23:30–00:30Nothing to play');
    expect(within(items[4]!).getByText('Live')).toBeInTheDocument();
    expect(within(next).getByText('Today, Monday 23 November 2026')).toBeInTheDocument();
    expect(within(next).getByText('Tomorrow, Tuesday 24 November 2026')).toBeInTheDocument();

    const problems = within(next).getByRole('region', { name: 'Problems ahead' });
    expect(problems).toHaveTextContent('3 problems ahead');
    expect(problems).toHaveTextContent('12:42 Midday Word: Runs 5 minutes past the end of Midday Word.');
    expect(problems).toHaveTextContent('23:30 Nothing to play for 60 minutes: the rotation has no music.');
    expect(problems).toHaveTextContent('07:00 Morning Prayer: No presenter is set for Morning Prayer.');
    expect(api.calls('GET', UPCOMING_PATH).map((c) => c.path)).toEqual([`${UPCOMING_PATH}?hours=24`]);
  });

  it('says when nothing is planned and no problem is flagged', async () => {
    setUp({ [`GET ${UPCOMING_PATH}`]: { status: 200, body: { ...UPCOMING, entries: [] } } });
    const next = await view();
    expect(
      await within(next).findByText('Nothing is planned to air in the next 24 hours.'),
    ).toBeInTheDocument();
    expect(within(next).queryByRole('region', { name: 'Problems ahead' })).toBeNull();
  });

  it('says when it cannot be loaded, before the station plans anything (404)', async () => {
    setUp({ [`GET ${UPCOMING_PATH}`]: { status: 404, body: { message: 'Not found' } } });
    const next = await view();
    expect(
      await within(next).findByText(
        'What airs next could not be loaded. It is tried again every 30 seconds.',
      ),
    ).toBeInTheDocument();
  });

  it('is read again after a change to the schedule', async () => {
    const { api, user } = setUp();
    await within(await view()).findAllByTestId('upcoming-entry');
    expect(api.calls('GET', UPCOMING_PATH)).toHaveLength(1);
    const f = await openNewProgramme(user);
    await user.click(within(f).getByRole('button', { name: 'Add programme' }));
    expect(await saved('Programme added')).toBeInTheDocument();
    await waitFor(() => expect(api.calls('GET', UPCOMING_PATH)).toHaveLength(2));
  });

  it('is read again every 30 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = setUp();
    await within(await view()).findAllByTestId('upcoming-entry');
    expect(api.calls('GET', UPCOMING_PATH)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(29_000);
    expect(api.calls('GET', UPCOMING_PATH)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_500);
    await waitFor(() => expect(api.calls('GET', UPCOMING_PATH)).toHaveLength(2));
  });
});
