import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_AIRS, type OneOff, type ScheduledProgram } from '../../../../common/programs';
import { FALLBACK_STATION } from '../../../lib/station';
import { fakeStaffApi, type FakeRequest } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { ScheduleTab } from './schedule-tab';

// Forms filled key by key in a dialog: slower than most component tests on a busy machine.
vi.setConfig({ testTimeout: 15_000 });

const TODAY = '2026-11-23'; // a Monday

const entry = (over: Partial<ScheduledProgram>): ScheduledProgram => ({
  id: over.title ?? 'p',
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

afterEach(() => vi.unstubAllGlobals());

/**
 * Clicks a button in a dialog opened over another: the dialogs' layers take pointer events back a moment after
 * it opens (longer on a busy machine), as a person's click would wait for it to be there.
 */
const clickWhenOpen = (user: ReturnType<typeof userEvent.setup>, button: HTMLElement) =>
  waitFor(() => user.click(button));

/**
 * A small station: the week and one-offs in memory. Asked first, it names "Midday Word" for a programme
 * at 12:30; a save at 12:30 unconfirmed is refused (what another desk's save in between would cause).
 */
function setUp() {
  // jsdom has no ResizeObserver; Radix measures the form's switch with one.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  let programs: ScheduledProgram[] = [
    entry({ id: 'p1', title: 'Midday Word', speaker: 'Pastor James', overlapsWith: ['p2'] }),
    entry({ id: 'p2', title: 'Lunch Hymns', startTime: '12:30', overlapsWith: ['p1'] }),
    entry({ id: 'p3', title: 'Sunday Service', dayOfWeek: 'sunday', startTime: '10:00', duration: 90 }),
    entry({ id: 'p4', title: 'Old Show', dayOfWeek: 'friday', isActive: false }),
  ];
  let oneOffs: OneOff[] = [];
  const overlapRefusal = {
    status: 409,
    body: {
      message: 'This overlaps "Midday Word" (Monday 12:00–13:00). Confirm the overlap to save it anyway.',
    },
  };
  const body = (r: FakeRequest) => r.body as Record<string, unknown>;
  const check = (r: FakeRequest) => ({
    status: 200,
    body: {
      overlaps: body(r).startTime === '12:30' ? [{ title: 'Midday Word', when: 'Monday 12:00–13:00' }] : [],
    },
  });
  const api = fakeStaffApi({
    'POST /api/programs/check': check,
    'POST /api/programs/p2/check': check,
    'POST /api/programs/one-offs/check': check,
    'GET /api/programs': () => ({ status: 200, body: { timeZone: 'Africa/Lagos', today: TODAY, programs } }),
    'GET /api/programs/one-offs': () => ({ status: 200, body: oneOffs }),
    'POST /api/programs': (r) => {
      const { confirmOverlap, ...fields } = body(r);
      if (fields.startTime === '12:30' && !confirmOverlap) return overlapRefusal;
      const saved = entry({ ...(fields as Partial<ScheduledProgram>), id: `p${programs.length + 1}` });
      programs = [...programs, saved];
      return { status: 201, body: saved };
    },
    'PATCH /api/programs/p2': (r) => {
      programs = programs.map((p) =>
        p.id === 'p2' ? { ...p, ...(body(r) as Partial<ScheduledProgram>) } : p,
      );
      return { status: 200, body: programs.find((p) => p.id === 'p2') };
    },
    'DELETE /api/programs/p3': () => {
      programs = programs.filter((p) => p.id !== 'p3');
      return { status: 204 };
    },
    'POST /api/programs/one-offs': (r) => {
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
        ...(body(r) as Partial<OneOff>),
      } as OneOff;
      oneOffs = [...oneOffs, saved];
      return { status: 201, body: saved };
    },
  });
  const user = userEvent.setup({ delay: null });
  const view = renderWithProviders(<ScheduleTab />);
  return { api, user, ...view };
}

const day = (name: string) => screen.getByRole('region', { name: new RegExp(`^${name}`) });

describe('Schedule tab: the week', () => {
  it("shows each day's programmes with time, title and speaker; overlaps flagged, inactive ones dimmed", async () => {
    setUp();
    const monday = await screen.findByRole('list', { name: 'Monday programmes' });
    const [midday, lunch] = within(monday).getAllByTestId('schedule-entry');
    expect(midday).toHaveTextContent('12:00–13:00');
    expect(midday).toHaveTextContent('Midday Word');
    expect(midday).toHaveTextContent('Pastor James');
    expect(within(midday!).getByText('Overlaps')).toBeInTheDocument();
    expect(midday).toHaveTextContent('Overlaps Lunch Hymns');
    expect(lunch).toHaveTextContent('Overlaps Midday Word');
    expect(within(day('Monday')).getByText('Today')).toBeInTheDocument();
    const old = within(day('Friday')).getByTestId('schedule-entry');
    expect(old).toHaveClass('opacity-60');
    expect(within(old).getByText('Inactive')).toBeInTheDocument();
    expect(within(day('Tuesday')).getByText('Nothing scheduled')).toBeInTheDocument();
    expect(screen.getByText(/4 weekly programmes, 2 overlaps flagged/)).toHaveTextContent('Africa/Lagos');
  });

  it('adds a programme on a day with every field, and the week is read again', async () => {
    const { api, user } = setUp();
    await screen.findByRole('list', { name: 'Monday programmes' });
    await user.click(screen.getByRole('button', { name: 'Add a programme on Wednesday' }));
    const form = await screen.findByRole('form', { name: 'Add programme' });
    await user.type(within(form).getByLabelText('Title'), 'Youth Voices');
    await user.type(within(form).getByLabelText('Speaker (optional)'), 'Youth Ministry');
    await user.type(within(form).getByLabelText('Ministry focus (optional)'), 'Youth');
    await user.type(within(form).getByLabelText('Description (optional)'), 'Testimonies and new music.');
    fireEvent.change(within(form).getByLabelText('Start time'), { target: { value: '16:00' } });
    await user.clear(within(form).getByLabelText('Duration (minutes)'));
    await user.type(within(form).getByLabelText('Duration (minutes)'), '45');
    await user.click(within(form).getByRole('button', { name: 'Add programme' }));
    expect(await screen.findByText('Programme added')).toBeInTheDocument();
    expect(api.calls('POST', '/api/programs')[0]!.body).toEqual({
      title: 'Youth Voices',
      speaker: 'Youth Ministry',
      ministryFocus: 'Youth',
      description: 'Testimonies and new music.',
      startTime: '16:00',
      duration: 45,
      dayOfWeek: 'wednesday',
      isActive: true,
      airs: DEFAULT_AIRS,
      confirmOverlap: false,
    });
    expect(await within(day('Wednesday')).findByText('Youth Voices')).toBeInTheDocument();
    expect(api.calls('GET', '/api/programs').length).toBeGreaterThan(1);
  });

  it('says what is missing and sends nothing', async () => {
    const { api, user } = setUp();
    await screen.findByRole('list', { name: 'Monday programmes' });
    await user.click(screen.getByRole('button', { name: 'Add programme' }));
    const form = await screen.findByRole('form', { name: 'Add programme' });
    await user.click(within(form).getByRole('button', { name: 'Add programme' }));
    expect(await within(form).findByText('Title is required')).toBeInTheDocument();
    expect(within(form).getByText('Start time must be HH:MM, from 00:00 to 23:59')).toBeInTheDocument();
    expect(api.calls('POST', '/api/programs')).toEqual([]);
  });

  it("takes a programme without a speaker and shows the station's name for it", async () => {
    const { api, user } = setUp();
    await screen.findByRole('list', { name: 'Monday programmes' });
    await user.click(screen.getByRole('button', { name: 'Add a programme on Thursday' }));
    const form = await screen.findByRole('form', { name: 'Add programme' });
    expect(within(form).getByLabelText('Speaker (optional)')).toHaveAttribute(
      'placeholder',
      FALLBACK_STATION.name,
    );
    await user.type(within(form).getByLabelText('Title'), 'Station Hymns');
    fireEvent.change(within(form).getByLabelText('Start time'), { target: { value: '08:00' } });
    await user.click(within(form).getByRole('button', { name: 'Add programme' }));
    expect(await screen.findByText('Programme added')).toBeInTheDocument();
    expect(api.calls('POST', '/api/programs')[0]!.body).toMatchObject({
      title: 'Station Hymns',
      speaker: null,
    });
    const thursday = await within(day('Thursday')).findByTestId('schedule-entry');
    expect(thursday).toHaveTextContent('Station Hymns');
    expect(thursday).toHaveTextContent(FALLBACK_STATION.name);
  });

  it("asks before saving an overlap the station names, and 'Save anyway' saves it confirmed once", async () => {
    const { api, user } = setUp();
    await screen.findByRole('list', { name: 'Monday programmes' });
    await user.click(screen.getByRole('button', { name: 'Add a programme on Monday' }));
    const form = await screen.findByRole('form', { name: 'Add programme' });
    await user.type(within(form).getByLabelText('Title'), 'Prayer Break');
    await user.type(within(form).getByLabelText('Speaker (optional)'), 'Prayer Team');
    fireEvent.change(within(form).getByLabelText('Start time'), { target: { value: '12:30' } });
    await user.click(within(form).getByRole('button', { name: 'Add programme' }));
    const warning = await screen.findByRole('alertdialog', { name: 'Overlapping programmes' });
    expect(warning).toHaveTextContent('This overlaps "Midday Word" (Monday 12:00–13:00). Save it anyway?');
    expect(api.calls('POST', '/api/programs/check')[0]!.body).toMatchObject({ title: 'Prayer Break' });
    expect(api.calls('POST', '/api/programs')).toEqual([]);
    await clickWhenOpen(user, within(warning).getByRole('button', { name: 'Save anyway' }));
    expect(await screen.findByText('Programme added')).toBeInTheDocument();
    const posts = api.calls('POST', '/api/programs');
    expect(posts.map((p) => (p.body as { confirmOverlap: boolean }).confirmOverlap)).toEqual([true]);
    expect(await within(day('Monday')).findByText('Prayer Break')).toBeInTheDocument();
  });

  it('saves at once when the station names no overlap, and still asks if a save is refused for one', async () => {
    const { api, user } = setUp();
    api.setRoute('POST /api/programs/check', { status: 200, body: { overlaps: [] } });
    await screen.findByRole('list', { name: 'Monday programmes' });
    await user.click(screen.getByRole('button', { name: 'Add a programme on Monday' }));
    const form = await screen.findByRole('form', { name: 'Add programme' });
    await user.type(within(form).getByLabelText('Title'), 'Prayer Break');
    fireEvent.change(within(form).getByLabelText('Start time'), { target: { value: '12:30' } });
    await user.click(within(form).getByRole('button', { name: 'Add programme' }));
    const warning = await screen.findByRole('alertdialog', { name: 'Overlapping programmes' });
    expect(warning).toHaveTextContent('Confirm the overlap to save it anyway.');
    await clickWhenOpen(user, within(warning).getByRole('button', { name: 'Save anyway' }));
    expect(await screen.findByText('Programme added')).toBeInTheDocument();
    const posts = api.calls('POST', '/api/programs');
    expect(posts.map((p) => (p.body as { confirmOverlap: boolean }).confirmOverlap)).toEqual([false, true]);
  });

  it('deactivates with the switch and deletes after the confirmation', async () => {
    const { api, user } = setUp();
    await screen.findByRole('list', { name: 'Monday programmes' });
    await user.click(screen.getByRole('switch', { name: 'Lunch Hymns on the air every week' }));
    await waitFor(() =>
      expect(api.calls('PATCH', '/api/programs/p2')[0]?.body).toEqual({
        isActive: false,
        confirmOverlap: false,
      }),
    );
    expect(await screen.findByText('"Lunch Hymns" is off the air')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete Sunday Service' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete programme' });
    expect(confirm).toHaveTextContent('Are you sure you want to delete "Sunday Service"?');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(day('Sunday')).queryByText('Sunday Service')).toBeNull());
    expect(api.calls('DELETE', '/api/programs/p3')).toHaveLength(1);
  });
});

describe('Schedule tab: one-off changes', () => {
  it("lists the chosen date's programmes and cancels one for that day only", async () => {
    const { api, user } = setUp();
    const list = await screen.findByRole('list', { name: 'Programmes on Monday 23 November 2026' });
    const midday = within(list).getAllByRole('listitem')[0]!;
    await user.click(within(midday).getByRole('button', { name: 'Cancel that day: Midday Word' }));
    expect(await screen.findByText('"Midday Word" cancelled on Monday 23 November 2026')).toBeInTheDocument();
    expect(api.calls('POST', '/api/programs/one-offs')[0]!.body).toEqual({
      kind: 'cancel',
      date: TODAY,
      programId: 'p1',
    });
    expect(await within(midday).findByText('Cancelled')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'One-off changes coming up' })).toHaveTextContent(
      '"Midday Word" cancelled',
    );
  });

  it('replaces a weekly programme on the date, starting from its own details', async () => {
    const { api, user } = setUp();
    const list = await screen.findByRole('list', { name: 'Programmes on Monday 23 November 2026' });
    await user.click(within(list).getByRole('button', { name: 'Replace Midday Word' }));
    const form = await screen.findByRole('form', { name: 'Replace Midday Word' });
    expect(within(form).getByLabelText('Speaker (optional)')).toHaveValue('Pastor James');
    await user.clear(within(form).getByLabelText('Title'));
    await user.type(within(form).getByLabelText('Title'), 'Harvest Service');
    await user.click(within(form).getByRole('button', { name: 'Save replacement' }));
    expect(await screen.findByText('Replacement saved')).toBeInTheDocument();
    expect(api.calls('POST', '/api/programs/one-offs')[0]!.body).toEqual({
      kind: 'replace',
      date: TODAY,
      programId: 'p1',
      title: 'Harvest Service',
      speaker: 'Pastor James',
      ministryFocus: null,
      description: null,
      startTime: '12:00',
      duration: 60,
      airs: DEFAULT_AIRS,
      confirmOverlap: false,
    });
    expect(await within(list).findByText('Replaced by "Harvest Service" (12:00–13:00)')).toBeInTheDocument();
  });

  it('adds a special service on another date', async () => {
    const { api, user } = setUp();
    await screen.findByRole('list', { name: /^Programmes on/ });
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2026-12-25' } });
    expect(await screen.findByText('Friday 25 December 2026')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add a special service' }));
    const form = await screen.findByRole('form', { name: 'Add a special service' });
    expect(within(form).queryByLabelText('Day')).toBeNull();
    await user.type(within(form).getByLabelText('Title'), 'Christmas Service');
    await user.type(within(form).getByLabelText('Speaker (optional)'), 'Bishop Ade');
    fireEvent.change(within(form).getByLabelText('Start time'), { target: { value: '10:00' } });
    await user.click(within(form).getByRole('button', { name: 'Add special service' }));
    expect(await screen.findByText('Special service added')).toBeInTheDocument();
    expect(api.calls('POST', '/api/programs/one-offs')[0]!.body).toMatchObject({
      kind: 'add',
      date: '2026-12-25',
      title: 'Christmas Service',
      speaker: 'Bishop Ade',
      startTime: '10:00',
      duration: 60,
    });
  });
});
