import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  pickNext,
  pickPlaylist,
  rulesWarning,
  type PlaylistRules,
  type PlaylistState,
  type Played,
  type RotationItem,
} from './rotation.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const T0 = Date.UTC(2026, 10, 1, 0, 0, 0);

const rules = (overrides: Partial<PlaylistRules> = {}): PlaylistRules => ({
  order: 'shuffle',
  noRepeatTitleMinutes: 120,
  noRepeatArtistMinutes: 30,
  insertKind: null,
  insertEverySongs: null,
  insertEveryMinutes: null,
  ...overrides,
});

const song = (n: number, overrides: Partial<RotationItem> = {}): RotationItem => ({
  mediaId: `song-${n}`,
  title: `Hymn ${n}`,
  artist: `Choir ${n}`,
  duration: 240,
  kind: 'music',
  ...overrides,
});

const stationIds = (count: number): RotationItem[] =>
  Array.from({ length: count }, (_, n) => ({
    mediaId: `id-${n}`,
    title: `Station identification ${n}`,
    artist: '',
    duration: 10,
    kind: 'station_id',
  }));

/** A random library: titles and artists drawn from small pools (so they repeat), 2 to 7 minutes each. */
const library = (size: { min: number; max: number }, pools = { titles: 200, artists: 12 }) =>
  fc
    .array(
      fc.record({
        title: fc.integer({ min: 0, max: pools.titles - 1 }),
        artist: fc.integer({ min: 0, max: pools.artists - 1 }),
        duration: fc.integer({ min: 120, max: 420 }),
      }),
      { minLength: size.min, maxLength: size.max },
    )
    .map((drawn) =>
      drawn.map((d, n): RotationItem => ({
        mediaId: `m${n}`,
        title: `Title ${d.title}`,
        artist: d.artist === 0 ? '' : `Artist ${d.artist}`,
        duration: d.duration,
        kind: 'music',
      })),
    );

/** Random numbers from fast-check's seed, so a failure replays. */
const randomFrom = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

const key = (text: string) => text.trim().toLowerCase();
/** The rules, checked independently of the implementation: which items keep the title and artist rules now. */
function rulesAt(history: Played[], now: number, r: PlaylistRules) {
  const recent = (minutes: number) => history.filter((played) => played.at > now - minutes * MINUTE);
  const titles = new Set(recent(r.noRepeatTitleMinutes).flatMap((p) => [key(p.title), `id:${p.mediaId}`]));
  const artists = new Set(recent(r.noRepeatArtistMinutes).map((p) => key(p.artist)));
  return (item: RotationItem) => ({
    title: !titles.has(key(item.title)) && !titles.has(`id:${item.mediaId}`),
    artist: key(item.artist) === '' || !artists.has(key(item.artist)),
  });
}

interface Aired extends Played {
  insert: boolean;
  relaxed: string[];
}

/** A day on air: each pick plays to its end, then the next is asked for; every pick's `relaxed` is checked. */
function simulateDay(
  r: PlaylistRules,
  items: RotationItem[],
  inserts: RotationItem[],
  random: () => number,
): Aired[] {
  const aired: Aired[] = [];
  let state: PlaylistState | undefined;
  let now = T0;
  while (now < T0 + DAY) {
    // What the engine would pass: the last few hours (the longest rule is four hours).
    const history = aired.filter((played) => played.at > now - 5 * 60 * MINUTE);
    const pick = pickNext({ playlist: r, items, inserts, history, state, now, random })!;
    expect(pick).not.toBeNull();
    if (!pick.insert) {
      const keeps = rulesAt(aired, now, r);
      const kept = keeps(pick.item);
      const anyKeepsBoth = items.some((item) => keeps(item).title && keeps(item).artist);
      const anyKeepsTitle = items.some((item) => keeps(item).title);
      // Relaxed only when needed, artist before title, and said exactly.
      if (pick.relaxed.length === 0) expect(kept).toEqual({ title: true, artist: true });
      else if (pick.relaxed.length === 1) {
        expect(pick.relaxed).toEqual(['artist']);
        expect(anyKeepsBoth).toBe(false);
        expect(kept.title).toBe(true);
      } else {
        expect(pick.relaxed).toEqual(['artist', 'title']);
        expect(anyKeepsTitle).toBe(false);
      }
    }
    aired.push({ ...pick.item, at: now, insert: pick.insert, relaxed: pick.relaxed });
    state = pick.state;
    now += pick.item.duration * 1000;
  }
  return aired;
}

/** Sum of the shortest item of each distinct title, in seconds. */
const distinctTitleSeconds = (items: RotationItem[]) => {
  const byTitle = new Map<string, number>();
  for (const item of items)
    byTitle.set(key(item.title), Math.min(byTitle.get(key(item.title)) ?? Infinity, item.duration));
  return [...byTitle.values()].reduce((a, b) => a + b, 0);
};

describe('a simulated day (fast-check over random libraries)', () => {
  it('never repeats a title within 120 minutes when the library is large enough, in either order', () => {
    fc.assert(
      fc.property(
        library({ min: 30, max: 80 }),
        fc.constantFrom('in_order', 'shuffle') as fc.Arbitrary<PlaylistRules['order']>,
        fc.integer(),
        (items, order, seed) => {
          fc.pre(distinctTitleSeconds(items) >= 120 * 60);
          const r = rules({ order });
          const day = simulateDay(r, items, [], randomFrom(seed));
          for (const [i, played] of day.entries()) {
            const earlier = day
              .slice(0, i)
              .filter(
                (other) => other.at > played.at - 120 * MINUTE && key(other.title) === key(played.title),
              );
            expect(earlier, `${played.title} at minute ${(played.at - T0) / MINUTE}`).toEqual([]);
            expect(played.relaxed).not.toContain('title');
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('relaxes artist, then title, only when no item can keep them, and says so', () => {
    fc.assert(
      fc.property(
        library({ min: 1, max: 25 }, { titles: 15, artists: 4 }),
        fc.constantFrom('in_order', 'shuffle') as fc.Arbitrary<PlaylistRules['order']>,
        fc.integer({ min: 0, max: 240 }),
        fc.integer({ min: 0, max: 120 }),
        fc.integer(),
        (items, order, title, artist, seed) => {
          const day = simulateDay(
            rules({ order, noRepeatTitleMinutes: title, noRepeatArtistMinutes: artist }),
            items,
            [],
            randomFrom(seed),
          );
          expect(day.length).toBeGreaterThan((24 * 60 * 60) / 420 - 1);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('inserts a station identification every N songs, exactly', () => {
    fc.assert(
      fc.property(
        library({ min: 40, max: 60 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom('in_order', 'shuffle') as fc.Arbitrary<PlaylistRules['order']>,
        fc.integer(),
        (items, every, idCount, order, seed) => {
          const r = rules({ order, insertKind: 'station_id', insertEverySongs: every });
          const day = simulateDay(r, items, stationIds(idCount), randomFrom(seed));
          const runs: number[] = [0];
          for (const played of day) {
            if (played.insert) runs.push(0);
            else runs[runs.length - 1]!++;
          }
          expect(runs.length).toBeGreaterThan(1);
          for (const run of runs.slice(0, -1)) expect(run).toBe(every);
          expect(runs.at(-1)!).toBeLessThanOrEqual(every);
          // The identifications take turns: the one heard longest ago comes next.
          const ids = day.filter((played) => played.insert).map((played) => played.mediaId);
          for (const [i, id] of ids.entries()) if (i >= idCount) expect(id).toBe(ids[i - idCount]);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('inserts one every N minutes: never sooner, and no later than the song playing when it falls due', () => {
    fc.assert(
      fc.property(
        library({ min: 40, max: 60 }),
        fc.integer({ min: 1, max: 240 }),
        fc.integer(),
        (items, every, seed) => {
          const r = rules({ insertKind: 'jingle', insertEveryMinutes: every });
          const day = simulateDay(r, items, stationIds(2), randomFrom(seed));
          const longest = Math.max(...items.map((item) => item.duration)) * 1000;
          const times = [T0, ...day.filter((played) => played.insert).map((played) => played.at)];
          expect(times.length).toBeGreaterThanOrEqual(Math.floor(DAY / (every * MINUTE + longest + 10_000)));
          for (let i = 1; i < times.length; i++) {
            const gap = times[i]! - times[i - 1]!;
            expect(gap).toBeGreaterThanOrEqual(every * MINUTE);
            expect(gap).toBeLessThan(every * MINUTE + longest + 10_000);
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('pickNext', () => {
  const items = Array.from({ length: 5 }, (_, n) => song(n, { duration: 60 * 60 }));
  const free = rules({ noRepeatTitleMinutes: 0, noRepeatArtistMinutes: 0 });

  it('in order continues after the item of this playlist played last, even with no state', () => {
    const history: Played[] = [
      { ...song(2), at: T0 - 3 * MINUTE },
      { mediaId: 'elsewhere', title: 'News', artist: '', at: T0 - MINUTE },
    ];
    const pick = pickNext({
      playlist: { ...free, order: 'in_order' },
      items,
      inserts: [],
      history,
      now: T0,
      random: Math.random,
    })!;
    expect(pick.item.mediaId).toBe('song-3');
    const after = pickNext({
      playlist: { ...free, order: 'in_order' },
      items,
      inserts: [],
      history: [],
      state: pick.state,
      now: T0,
      random: Math.random,
    })!;
    expect(after.item.mediaId).toBe('song-4');
  });

  it('in order skips an item that would break a rule and plays it later', () => {
    const history: Played[] = [
      { ...song(0), at: T0 - 10 * MINUTE },
      { ...song(9, { artist: 'Choir 1' }), at: T0 - 5 * MINUTE },
    ];
    const pick = pickNext({
      playlist: rules({ order: 'in_order' }),
      items,
      inserts: [],
      history,
      now: T0,
      random: Math.random,
    })!;
    expect(pick.item.mediaId).toBe('song-2');
    expect(pick.relaxed).toEqual([]);
  });

  it('shuffled plays every item once before any plays again', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 30 }), (seed, count) => {
        const list = Array.from({ length: count }, (_, n) => song(n));
        const random = randomFrom(seed);
        let state: PlaylistState | undefined;
        const played: string[] = [];
        for (let i = 0; i < count * 3; i++) {
          const pick = pickNext({
            playlist: free,
            items: list,
            inserts: [],
            history: [],
            state,
            now: T0,
            random,
          })!;
          played.push(pick.item.mediaId);
          state = pick.state;
        }
        for (let round = 0; round < 3; round++)
          expect(new Set(played.slice(round * count, (round + 1) * count)).size).toBe(count);
      }),
    );
  });

  it('gives the same pick for the same inputs, and changes nothing it is given', () => {
    const history: Played[] = [{ ...song(1), at: T0 - MINUTE }];
    const state: PlaylistState = {
      position: null,
      lastMediaId: 'song-1',
      bag: ['song-3', 'song-0'],
      songsSinceInsert: 2,
      lastInsertAt: T0 - 5 * MINUTE,
    };
    const frozen = structuredClone({ history, state });
    const ask = () =>
      pickNext({ playlist: rules(), items, inserts: [], history, state, now: T0, random: randomFrom(7) });
    expect(ask()).toEqual(ask());
    expect({ history, state }).toEqual(frozen);
    expect(ask()!.state.bag).toEqual(['song-0']);
  });

  it('passes over items removed from the playlist since the round began', () => {
    const state = (bag: string[]): PlaylistState => ({
      position: null,
      lastMediaId: null,
      bag,
      songsSinceInsert: 0,
      lastInsertAt: T0,
    });
    const ask = (bag: string[]) =>
      pickNext({
        playlist: free,
        items,
        inserts: [],
        history: [],
        state: state(bag),
        now: T0,
        random: randomFrom(3),
      })!;
    expect(ask(['gone', 'song-2', 'song-4']).item.mediaId).toBe('song-2');
    const refilled = ask(['gone', 'also-gone']);
    expect(items.map((item) => item.mediaId)).toContain(refilled.item.mediaId);
    expect(refilled.state.bag).toHaveLength(items.length - 1);
  });

  it('answers null for an empty playlist, and plays no insert when none is in the library', () => {
    expect(
      pickNext({
        playlist: rules(),
        items: [],
        inserts: stationIds(1),
        history: [],
        now: T0,
        random: Math.random,
      }),
    ).toBeNull();
    const pick = pickNext({
      playlist: rules({ insertKind: 'station_id', insertEverySongs: 1 }),
      items,
      inserts: [],
      history: [],
      state: { position: null, lastMediaId: null, bag: [], songsSinceInsert: 5, lastInsertAt: T0 },
      now: T0,
      random: Math.random,
    })!;
    expect(pick.insert).toBe(false);
  });
});

describe('pickPlaylist', () => {
  it('shares a day of picks by weight, each close to its share', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 500 }),
        fc.integer(),
        (weights, picks, seed) => {
          const playlists = weights.map((weight, n) => ({ id: `p${n}`, weight }));
          const total = weights.reduce((a, b) => a + b, 0);
          const random = randomFrom(seed);
          const counts = new Map<string, number>();
          let scores: Record<string, number> = {};
          for (let i = 0; i < picks; i++) {
            const chosen = pickPlaylist(playlists, scores, random)!;
            counts.set(chosen.id, (counts.get(chosen.id) ?? 0) + 1);
            scores = chosen.scores;
          }
          for (const { id, weight } of playlists)
            expect(Math.abs((counts.get(id) ?? 0) - (picks * weight) / total)).toBeLessThan(playlists.length);
        },
      ),
    );
  });

  it('spreads a playlist out rather than playing it in a block', () => {
    let scores: Record<string, number> = {};
    const order: string[] = [];
    for (let i = 0; i < 8; i++) {
      const chosen = pickPlaylist(
        [
          { id: 'worship', weight: 3 },
          { id: 'teaching', weight: 1 },
        ],
        scores,
        () => 0,
      )!;
      order.push(chosen.id);
      scores = chosen.scores;
    }
    expect(order.join(' ')).toBe('worship worship teaching worship worship worship teaching worship');
  });

  it('answers null with no playlist', () => {
    expect(pickPlaylist([], {}, Math.random)).toBeNull();
  });
});

describe('rulesWarning', () => {
  const minutes = (count: number, each: number, artist = (n: number) => `Choir ${n}`) =>
    Array.from({ length: count }, (_, n) => ({ title: `Hymn ${n}`, artist: artist(n), duration: each * 60 }));

  it.each([
    [
      'too few songs for the title rule',
      rules(),
      minutes(5, 4),
      'Only 5 songs (20 minutes of music): with no repeat of a title within 120 minutes this playlist needs at least 120 minutes of music. Add songs or shorten that time, or titles will repeat sooner.',
    ],
    ['enough songs', rules(), minutes(40, 4), null],
    [
      'a title rule turned off',
      rules({ noRepeatTitleMinutes: 0, noRepeatArtistMinutes: 0 }),
      minutes(2, 4),
      null,
    ],
    [
      'one artist singing most',
      rules(),
      minutes(40, 4, (n) => (n < 10 ? 'Grace Choir' : `Choir ${n}`)),
      'Grace Choir has 10 of the 40 songs: to keep 30 minutes between songs by the same artist this playlist needs at least 300 minutes of music, and has 160. Add songs by others or shorten that time, or the artist will repeat sooner.',
    ],
    ['an empty playlist', rules(), [], null],
  ])('%s', (_c, r, items, expected) => {
    expect(rulesWarning(r, items)).toBe(expected);
  });

  it('counts a title once however many recordings of it there are', () => {
    const items = [...minutes(29, 4), ...minutes(29, 4)];
    expect(rulesWarning(rules(), items)).toMatch(/^Only 29 different titles \(116 minutes of music\)/);
  });
});
