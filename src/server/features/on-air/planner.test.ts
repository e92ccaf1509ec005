import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Airs } from '../../../common/programs.js';
import { planBetween, planNext, type Catalogue, type PlannedItem, type PlanState } from './planner.js';
import type { Playable, Rotation } from './service.js';
import { hardChangeBetween, instantOf, slotAt, slotsOf, type DatedAiring } from './slots.js';

const MIN = 60_000;
const at = (iso: string) => Date.parse(iso);

const song = (id: string, seconds: number, kind = 'music', addedAt = 0): Playable => ({
  id,
  path: `/media/${id}.mp3`,
  title: `Title ${id}`,
  artist: `Artist ${id}`,
  kind,
  addedAt,
  duration: seconds,
});

/** Each catalogue's items as a list, made once (the preview picks hundreds of times from one). */
const listed = new WeakMap<Map<string, Playable>, Playable[]>();
const listOf = (items: Map<string, Playable>) => {
  let list = listed.get(items);
  if (!list) listed.set(items, (list = [...items.values()]));
  return list;
};

/** The simplest rotation: the whole library in the order it came, back to back. */
const libraryRotation: Rotation<{ lastId: string | null; index: number }> = {
  initial: { lastId: null, index: -1 },
  async pick(_playlistId, _at, state, items) {
    const list = listOf(items);
    if (!list.length) return null;
    // Where the last one is now (the library may have changed since), else just after where it was.
    const found =
      list[state.index]?.id === state.lastId ? state.index : list.findIndex((i) => i.id === state.lastId);
    const index = ((found >= 0 ? found : state.index) + 1) % list.length;
    const item = list[index]!;
    return { item, state: { lastId: item.id, index } };
  },
};

/** The planner's catalogue over items in memory, drawn by the library rotation (no playlists). */
function catalogueOf(list: Playable[]): Catalogue<{ lastId: string | null; index: number }> {
  const items = new Map(list.map((item) => [item.id, item]));
  const planned = (item: Playable): PlannedItem => ({
    ...item,
    artist: item.artist ?? '',
    length: item.duration!,
  });
  return {
    async pick(playlistId, when, state) {
      const picked = await libraryRotation.pick(playlistId, when, state, items);
      return picked && { ...picked, item: planned(picked.item) };
    },
    async recording(id) {
      const item = items.get(id);
      return item ? planned(item) : null;
    },
    async newest(kind) {
      const found = list.filter((i) => i.kind === kind).sort((a, b) => b.addedAt - a.addedAt)[0];
      return found ? planned(found) : null;
    },
  };
}

const fresh = (): PlanState<{ lastId: string | null; index: number }> => ({
  rotation: { lastId: null, index: -1 },
  begun: [],
});

const airing = (over: Partial<DatedAiring> & { airs: Airs | null }): DatedAiring => ({
  date: '2026-11-25',
  id: 'p1',
  title: 'Morning Devotion',
  startTime: '07:00',
  duration: 30,
  ...over,
});

describe('slots in the station time zone', () => {
  it.each([
    ['2026-11-25', 7 * 60, 'UTC', '2026-11-25T07:00:00.000Z'],
    ['2026-11-25', 7 * 60, 'America/Chicago', '2026-11-25T13:00:00.000Z'],
    ['2026-07-01', 10 * 60 + 30, 'Europe/London', '2026-07-01T09:30:00.000Z'],
    // The night clocks go forward: 02:30 does not exist in New York and moves on an hour.
    ['2026-03-08', 2 * 60 + 30, 'America/New_York', '2026-03-08T07:30:00.000Z'],
    ['2026-11-01', 0, 'Asia/Kolkata', '2026-10-31T18:30:00.000Z'],
  ])('%s minute %i in %s is %s', (date, minute, zone, iso) => {
    expect(new Date(instantOf(date, minute, zone)).toISOString()).toBe(iso);
  });

  it('finds the slot on the air (a later start wins) and the next moment what plays must change', () => {
    const slots = slotsOf(
      [
        airing({ airs: { kind: 'playlist', playlistId: 'pl', start: 'on_time', fillPlaylistId: null } }),
        airing({
          id: 'p2',
          title: 'News',
          startTime: '07:10',
          duration: 5,
          airs: { kind: 'rotation', start: 'on_time', fillPlaylistId: null },
        }),
        airing({
          id: 'p3',
          title: 'Soft',
          startTime: '08:00',
          airs: { kind: 'playlist', playlistId: 'pl', start: 'after_current', fillPlaylistId: null },
        }),
      ],
      'UTC',
    );
    expect(slotAt(slots, at('2026-11-25T07:12:00Z'))?.programme.title).toBe('News');
    expect(slotAt(slots, at('2026-11-25T06:59:59Z'))).toBeNull();
    const from = at('2026-11-25T06:00:00Z');
    // 07:00 starts on time; 07:10's rotation programme changes nothing; 07:30 ends on time; 08:00 follows the song.
    expect(hardChangeBetween(slots, from, from + 3 * 60 * MIN)).toBe(at('2026-11-25T07:00:00Z'));
    expect(hardChangeBetween(slots, at('2026-11-25T07:00:00Z'), from + 3 * 60 * MIN)).toBe(
      at('2026-11-25T07:30:00Z'),
    );
    expect(hardChangeBetween(slots, at('2026-11-25T07:30:00Z'), from + 3 * 60 * MIN)).toBeNull();
  });
});

describe('planNext', () => {
  const recordingSlot = (over: Partial<Extract<Airs, { kind: 'recording' }>> = {}) =>
    slotsOf(
      [
        airing({
          airs: {
            kind: 'recording',
            mediaId: 'devotion',
            overrun: 'fade',
            start: 'on_time',
            fillPlaylistId: null,
            ...over,
          },
        }),
      ],
      'UTC',
    );
  const library = [song('a', 240), song('b', 200), song('devotion', 600, 'devotion')];

  it('fades the fill at a programme start on time, airs its recording once, fills the rest, then the rotation', async () => {
    const slots = recordingSlot();
    const catalogue = catalogueOf(library);
    const start = at('2026-11-25T07:00:00Z');
    // Two minutes before: a four-minute song, faded at 07:00.
    const before = await planNext(start - 2 * MIN, slots, catalogue, fresh());
    expect(before.step).toMatchObject({ item: { id: 'a' }, endsBy: start, slot: null });
    const first = await planNext(start, slots, catalogue, before.state);
    expect(first.step).toMatchObject({ item: { id: 'devotion' }, endsBy: null, flags: [] });
    // Ten minutes on: the recording has aired; the fill (the rotation) plays to the end at 07:30.
    const after = await planNext(start + 10 * MIN, slots, catalogue, first.state);
    expect(after.step.item?.id).not.toBe('devotion');
    const late = await planNext(start + 28 * MIN, slots, catalogue, after.state);
    expect(late.step.endsBy).toBe(start + 30 * MIN);
    const next = await planNext(start + 30 * MIN, slots, catalogue, late.state);
    expect(next.step.slot).toBeNull();
  });

  it('flags a recording longer than its slot, faded or let finish as staff chose', async () => {
    const long = [song('devotion', 40 * 60, 'devotion'), song('a', 200)];
    const start = at('2026-11-25T07:00:00Z');
    const faded = await planNext(start, recordingSlot(), catalogueOf(long), fresh());
    expect(faded.step.endsBy).toBe(start + 30 * MIN);
    expect(faded.step.flags).toEqual([{ kind: 'overrun', message: expect.stringContaining('faded out') }]);
    const finished = await planNext(start, recordingSlot({ overrun: 'finish' }), catalogueOf(long), fresh());
    expect(finished.step.endsBy).toBeNull();
    expect(finished.step.flags[0]!.message).toContain('runs 10 min past the end of Morning Devotion');
  });

  it('flags a missing recording and plays the fill; the newest of a kind is this week’s upload', async () => {
    const start = at('2026-11-25T07:00:00Z');
    const missing = await planNext(start, recordingSlot({ mediaId: 'gone' }), catalogueOf(library), fresh());
    expect(missing.step.item?.id).toBe('a');
    expect(missing.step.flags[0]!.kind).toBe('missing_recording');
    const newest = slotsOf(
      [
        airing({
          airs: {
            kind: 'newest',
            mediaKind: 'sermon',
            overrun: 'fade',
            start: 'on_time',
            fillPlaylistId: null,
          },
        }),
      ],
      'UTC',
    );
    const sermons = [song('old', 600, 'sermon', 1), song('new', 600, 'sermon', 2), song('a', 200)];
    expect((await planNext(start, newest, catalogueOf(sermons), fresh())).step.item?.id).toBe('new');
  });
});

describe('planBetween', () => {
  it('lays out the next 24 hours with no holes, every on-time programme starting on its minute', async () => {
    const library = fc.array(fc.integer({ min: 30, max: 900 }), { minLength: 1, maxLength: 30 });
    const programme = fc.record({
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.constantFrom(0, 15, 30, 45),
      duration: fc.integer({ min: 5, max: 120 }),
      kind: fc.constantFrom('recording', 'playlist', 'live', 'rotation'),
      start: fc.constantFrom('on_time', 'after_current'),
    });
    await fc.assert(
      fc.asyncProperty(library, fc.array(programme, { maxLength: 6 }), async (lengths, programmes) => {
        const items = lengths.map((seconds, i) => song(`s${i}`, seconds));
        const dated = programmes.map((p, i): DatedAiring => {
          const start = p.start as 'on_time' | 'after_current';
          const airs: Airs =
            p.kind === 'recording'
              ? { kind: 'recording', mediaId: 's0', overrun: 'fade', start, fillPlaylistId: null }
              : p.kind === 'playlist'
                ? { kind: 'playlist', playlistId: 'pl', start, fillPlaylistId: null }
                : p.kind === 'live'
                  ? { kind: 'live', presenterId: 'u1', start, fillPlaylistId: null }
                  : { kind: 'rotation', start, fillPlaylistId: null };
          const time = `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
          return airing({ id: `p${i}`, title: `P${i}`, startTime: time, duration: p.duration, airs });
        });
        const slots = slotsOf(dated, 'UTC');
        const from = at('2026-11-25T00:00:00Z');
        const to = from + 24 * 60 * MIN;
        const entries = await planBetween(from, to, slots, catalogueOf(items), fresh());
        expect(entries[0]!.at).toBe(new Date(from).toISOString());
        for (let i = 1; i < entries.length; i++) expect(entries[i]!.at).toBe(entries[i - 1]!.until);
        expect(Date.parse(entries.at(-1)!.until)).toBeGreaterThanOrEqual(to);
        expect(entries.every((e) => e.kind !== 'gap')).toBe(true);
        const starts = new Set(entries.map((e) => Date.parse(e.at)));
        for (const slot of slots)
          if (
            slot.airs.kind !== 'rotation' &&
            slot.airs.start === 'on_time' &&
            slot.start >= from &&
            slot.start < to
          )
            // Unless a programme that began earlier covers it and lets its recording finish.
            expect(starts.has(slot.start) || slotAt(slots, slot.start - 1) !== null).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('with nothing to play, shows each programme its own share of the gap', async () => {
    const slots = slotsOf(
      [
        airing({ airs: { kind: 'rotation', start: 'on_time', fillPlaylistId: null } }),
        airing({ id: 'p2', title: 'Midday Word', startTime: '12:00', duration: 60, airs: null }),
      ],
      'UTC',
    );
    const from = at('2026-11-25T06:00:00Z');
    const entries = await planBetween(from, from + 12 * 60 * MIN, slots, catalogueOf([]), fresh());
    expect(
      entries.map((e) => [e.kind, e.at.slice(11, 16), e.until.slice(11, 16), e.programme?.title]),
    ).toEqual([
      ['gap', '06:00', '07:00', undefined],
      ['gap', '07:00', '07:30', 'Morning Devotion'],
      ['gap', '07:30', '12:00', undefined],
      ['gap', '12:00', '13:00', 'Midday Word'],
      ['gap', '13:00', '18:00', undefined],
    ]);
  });

  it('computes a day of a 10,000-item library quickly enough to list it on every visit', async () => {
    const items = Array.from({ length: 10_000 }, (_, i) => song(`s${i}`, 180 + (i % 120)));
    const from = at('2026-11-25T00:00:00Z');
    const entries = await planBetween(from, from + 24 * 60 * MIN, [], catalogueOf(items), fresh());
    expect(entries.length).toBeGreaterThan(300);
  });

  it('says once, not at every song, that a playlist is too small for its rules', async () => {
    const one = [song('only', 180)];
    const relaxing: Catalogue<{ lastId: string | null; index: number }> = {
      ...catalogueOf(one),
      async pick(playlistId, when, state) {
        const picked = await catalogueOf(one).pick(playlistId, when, state);
        return picked && { ...picked, relaxed: 'A title repeats sooner than its playlist allows' };
      },
    };
    const from = at('2026-11-25T00:00:00Z');
    const entries = await planBetween(from, from + 3 * 60 * MIN, [], relaxing, fresh());
    expect(entries.length).toBeGreaterThan(50);
    expect(entries.flatMap((e) => e.flags)).toEqual([
      { kind: 'rules_relaxed', message: 'A title repeats sooner than its playlist allows' },
    ]);
  });
});
