/**
 * The rotation rules, pure: no database, no clock. Given a playlist, what it holds, what aired and when,
 * they say what plays next. The same inputs (and the same random numbers) give the same pick, so the
 * 24-hour preview airs as it is shown.
 */
import type { InsertKind, PlaylistOrder } from '../../../common/playlists.js';

/** Something a playlist can play. */
export interface RotationItem {
  mediaId: string;
  title: string;
  artist: string;
  /** Seconds. */
  duration: number;
  kind: string;
}

/** Something that aired, at `at` (epoch ms, its start). */
export interface Played {
  mediaId: string;
  title: string;
  artist: string;
  at: number;
}

export interface RotationRules {
  noRepeatTitleMinutes: number;
  noRepeatArtistMinutes: number;
  insertKind: InsertKind | null;
  insertEverySongs: number | null;
  insertEveryMinutes: number | null;
}

export type PlaylistRules = RotationRules & { order: PlaylistOrder };

/** What one playlist remembers between picks (plain JSON, so it can be copied or stored). */
export interface PlaylistState {
  /** In order: the index of the item played last, and its id (to find it again if items moved). */
  position: number | null;
  lastMediaId: string | null;
  /** Shuffled: the items still to play in this round, in the order they will be offered. */
  bag: string[];
  /** Songs since the last insert, and when the last insert aired (or when counting began). */
  songsSinceInsert: number;
  lastInsertAt: number | null;
  /** The insert played last: the inserts take turns. */
  lastInsertId?: string | null;
}

export type Relaxed = ('title' | 'artist')[];

export interface NextPick {
  item: RotationItem;
  state: PlaylistState;
  /** The rules that could not be kept for this pick: artist first, then title; empty when all were kept. */
  relaxed: Relaxed;
  /** The item is an insert (a station identification or jingle), not one of the playlist's songs. */
  insert: boolean;
}

const MINUTE = 60_000;
/**
 * A title or artist as the no-repeat rules compare them. Kept per text: a plan asks for the same few hundred
 * texts at every pick, and a kept key is one string whose hash the maps already know.
 */
const keys = new Map<string, string>();
const key = (text: string) => {
  let found = keys.get(text);
  if (found === undefined) {
    if (keys.size >= 50_000) keys.clear();
    keys.set(text, (found = text.trim().toLowerCase()));
  }
  return found;
};

/** When each title, artist and item last aired, from the history. */
function lastAired(history: Played[]) {
  const titles = new Map<string, number>();
  const artists = new Map<string, number>();
  const items = new Map<string, number>();
  const note = (map: Map<string, number>, name: string, at: number) => {
    if (name && (map.get(name) ?? -Infinity) < at) map.set(name, at);
  };
  for (const played of history) {
    note(titles, key(played.title), played.at);
    note(artists, key(played.artist), played.at);
    note(items, played.mediaId, played.at);
  }
  return { titles, artists, items };
}

/** The state a playlist starts with, taking what the history says (after a restart, state may be lost). */
function stateFrom(items: RotationItem[], inserts: RotationItem[], history: Played[]): PlaylistState {
  const insertIds = new Set(inserts.map((item) => item.mediaId));
  const songIds = new Set(items.map((item) => item.mediaId));
  const sorted = [...history].sort((a, b) => a.at - b.at);
  let lastInsertAt: number | null = null;
  let songsSinceInsert = 0;
  let lastMediaId: string | null = null;
  let lastInsertId: string | null = null;
  for (const played of sorted) {
    if (insertIds.has(played.mediaId)) {
      lastInsertAt = played.at;
      lastInsertId = played.mediaId;
      songsSinceInsert = 0;
    } else if (songIds.has(played.mediaId)) {
      songsSinceInsert++;
      lastMediaId = played.mediaId;
    }
  }
  return { position: null, lastMediaId, bag: [], songsSinceInsert, lastInsertAt, lastInsertId };
}

/** A copy of the array shuffled (Fisher-Yates) with the given random numbers. */
export function shuffled<T>(values: readonly T[], random: () => number): T[] {
  const copy = [...values];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.min(i, Math.floor(random() * (i + 1)));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * The next item of a playlist: an insert when one is due, else the next song that keeps the no-repeat
 * rules (in order: the next in the list after the one played last; shuffled: the next of this round's bag).
 * When no song keeps them, the artist rule is relaxed first, then the title rule, and `relaxed` says so.
 * Null when the playlist has nothing to play.
 */
export function pickNext(input: {
  playlist: PlaylistRules;
  items: RotationItem[];
  inserts: RotationItem[];
  history: Played[];
  state?: PlaylistState | null;
  now: number;
  random: () => number;
}): NextPick | null {
  const { playlist, items, inserts, history, now, random } = input;
  if (items.length === 0) return null;
  const given = input.state ?? stateFrom(items, inserts, history);
  const state = { ...given, lastInsertAt: given.lastInsertAt ?? now };
  let whole: ReturnType<typeof lastAired> | undefined;
  const aired = () => (whole ??= lastAired(history));

  const insertDue =
    playlist.insertKind !== null &&
    inserts.length > 0 &&
    ((playlist.insertEverySongs !== null && state.songsSinceInsert >= playlist.insertEverySongs) ||
      (playlist.insertEveryMinutes !== null &&
        now - state.lastInsertAt >= playlist.insertEveryMinutes * MINUTE));
  if (insertDue) {
    // In turn after the one inserted last; with no turn known, the one heard longest ago.
    const last = inserts.findIndex((insert) => insert.mediaId === state.lastInsertId);
    const item =
      last >= 0
        ? inserts[(last + 1) % inserts.length]!
        : leastRecent(inserts, (i) => aired().items.get(i.mediaId) ?? -Infinity, random);
    return {
      item,
      state: { ...state, songsSinceInsert: 0, lastInsertAt: now, lastInsertId: item.mediaId },
      relaxed: [],
      insert: true,
    };
  }

  // The no-repeat checks look through the history itself, newest first: a pick checks a few items against
  // an hour or so of plays, and building maps of it at each pick cost more than the checks (and made garbage).
  const airedWithin = (minutes: number, same: (played: Played) => boolean) => {
    if (minutes <= 0) return false;
    const after = now - minutes * MINUTE;
    for (let i = history.length - 1; i >= 0; i--) {
      const played = history[i]!;
      if (played.at > after && same(played)) return true;
    }
    return false;
  };
  const keepsTitle = (item: RotationItem) => {
    const title = key(item.title);
    return !airedWithin(
      playlist.noRepeatTitleMinutes,
      (played) => played.mediaId === item.mediaId || (title !== '' && key(played.title) === title),
    );
  };
  const keepsArtist = (item: RotationItem) => {
    const artist = key(item.artist);
    return (
      artist === '' || !airedWithin(playlist.noRepeatArtistMinutes, (played) => key(played.artist) === artist)
    );
  };
  const tiers: [Relaxed, (item: RotationItem) => boolean][] = [
    [[], (item) => keepsTitle(item) && keepsArtist(item)],
    [['artist'], keepsTitle],
  ];
  // With every rule relaxed, the title heard longest ago.
  const titleAge = (item: RotationItem) =>
    Math.max(aired().titles.get(key(item.title)) ?? -Infinity, aired().items.get(item.mediaId) ?? -Infinity);

  const next = { ...state, songsSinceInsert: state.songsSinceInsert + 1 };
  const index = indexOf(items);
  if (playlist.order === 'in_order') {
    const n = items.length;
    let last = state.position;
    if (last === null || items[last]?.mediaId !== state.lastMediaId)
      last = state.lastMediaId === null ? null : (index.get(state.lastMediaId)?.position ?? null);
    const start = last === null ? 0 : (last + 1) % n;
    const inTurn = (k: number) => (start + k) % n;
    for (const [relaxed, keeps] of tiers)
      for (let k = 0; k < n; k++)
        if (keeps(items[inTurn(k)]!)) return inOrderPick(items, inTurn(k), next, relaxed);
    const all = Array.from({ length: n }, (_, k) => inTurn(k));
    const oldest = leastRecent(
      all,
      (i) => titleAge(items[i]!),
      () => 0,
    );
    return inOrderPick(items, oldest, next, ['artist', 'title']);
  }

  // The bag may name items removed since it was filled: they are passed over.
  let bag = state.bag;
  if (!bag.some((id) => index.has(id))) bag = shuffled(items, random).map((item) => item.mediaId);
  const airedAt = (item: RotationItem) => aired().items.get(item.mediaId) ?? -Infinity;
  const take = (item: RotationItem, relaxed: Relaxed): NextPick => {
    const at = bag.indexOf(item.mediaId);
    const left = bag.slice();
    if (at >= 0) left.splice(at, 1);
    return {
      item,
      state: {
        ...next,
        position: null,
        lastMediaId: item.mediaId,
        bag: left,
      },
      relaxed,
      insert: false,
    };
  };
  let bagged: Set<string> | undefined;
  const rest = () => {
    bagged ??= new Set(bag);
    return items.filter((item) => !bagged!.has(item.mediaId));
  };
  for (const [relaxed, keeps] of tiers) {
    // This round's bag first; then, rather than break a rule, an item already played this round.
    for (const id of bag) {
      const item = index.get(id)?.item;
      if (item && keeps(item)) return take(item, relaxed);
    }
    const others = rest().filter(keeps);
    if (others.length) return take(leastRecent(others, airedAt, random), relaxed);
  }
  const inBag = bag.flatMap((id) => index.get(id)?.item ?? []);
  return take(
    leastRecent([...inBag, ...rest()], titleAge, () => 0),
    ['artist', 'title'],
  );
}

/** Each item by id with its position, built once per items array (a snapshot asks thousands of times). */
const indexes = new WeakMap<RotationItem[], Map<string, { item: RotationItem; position: number }>>();
function indexOf(items: RotationItem[]) {
  let index = indexes.get(items);
  if (!index) {
    index = new Map(items.map((item, position) => [item.mediaId, { item, position }]));
    indexes.set(items, index);
  }
  return index;
}

function inOrderPick(items: RotationItem[], index: number, state: PlaylistState, relaxed: Relaxed): NextPick {
  const item = items[index]!;
  return { item, state: { ...state, position: index, lastMediaId: item.mediaId }, relaxed, insert: false };
}

/** The value with the smallest age; a tie is broken with the random numbers (the first with `() => 0`). */
function leastRecent<T>(values: T[], age: (value: T) => number, random: () => number): T {
  let oldest = Infinity;
  let ties: T[] = [];
  for (const value of values) {
    const at = age(value);
    if (at < oldest) {
      oldest = at;
      ties = [value];
    } else if (at === oldest) ties.push(value);
  }
  return ties[Math.min(ties.length - 1, Math.floor(random() * ties.length))]!;
}

/**
 * The default rotation's next playlist, by weight: smooth weighted round robin (as nginx balances
 * upstreams), so a playlist of weight 3 beside one of weight 1 plays three songs in four, spread out
 * (A A B A, not A A A B). `scores` carries the running scores between picks; ties go by the random numbers.
 */
export function pickPlaylist(
  playlists: { id: string; weight: number }[],
  scores: Record<string, number>,
  random: () => number,
): { id: string; scores: Record<string, number> } | null {
  if (playlists.length === 0) return null;
  const total = playlists.reduce((sum, playlist) => sum + playlist.weight, 0);
  const next: Record<string, number> = {};
  let best = -Infinity;
  let ties: string[] = [];
  for (const { id, weight } of playlists) {
    const score = (scores[id] ?? 0) + weight;
    next[id] = score;
    if (score > best) {
      best = score;
      ties = [id];
    } else if (score === best) ties.push(id);
  }
  const id = ties[Math.min(ties.length - 1, Math.floor(random() * ties.length))]!;
  next[id] = next[id]! - total;
  return { id, scores: next };
}

const minutes = (seconds: number) => Math.ceil(seconds / 60);
const songs = (count: number) => (count === 1 ? '1 song' : `${count} songs`);

/**
 * Why a playlist cannot keep its no-repeat rules, in plain words for staff; null when it can. A title can
 * return only once the others have filled its no-repeat time, so the distinct titles must last that long;
 * an artist with k songs needs k times its no-repeat time of music in all.
 */
export function rulesWarning(
  playlist: Pick<RotationRules, 'noRepeatTitleMinutes' | 'noRepeatArtistMinutes'>,
  items: Pick<RotationItem, 'title' | 'artist' | 'duration'>[],
): string | null {
  if (items.length === 0) return null;
  const byTitle = new Map<string, number>();
  for (const item of items) {
    const title = key(item.title);
    byTitle.set(title, Math.min(byTitle.get(title) ?? Infinity, item.duration));
  }
  const titleSeconds = [...byTitle.values()].reduce((sum, seconds) => sum + seconds, 0);
  const needTitle = playlist.noRepeatTitleMinutes * 60;
  if (needTitle > 0 && titleSeconds < needTitle) {
    const what = byTitle.size === items.length ? songs(items.length) : `${byTitle.size} different titles`;
    return (
      `Only ${what} (${minutes(titleSeconds)} minutes of music): with no repeat of a title within ` +
      `${playlist.noRepeatTitleMinutes} minutes this playlist needs at least ${playlist.noRepeatTitleMinutes} ` +
      'minutes of music. Add songs or shorten that time, or titles will repeat sooner.'
    );
  }
  const totalSeconds = items.reduce((sum, item) => sum + item.duration, 0);
  const needArtist = playlist.noRepeatArtistMinutes * 60;
  if (needArtist > 0) {
    const byArtist = new Map<string, { name: string; count: number }>();
    for (const item of items) {
      const artist = key(item.artist);
      if (!artist) continue;
      const entry = byArtist.get(artist) ?? { name: item.artist.trim(), count: 0 };
      entry.count++;
      byArtist.set(artist, entry);
    }
    const busiest = [...byArtist.values()].sort((a, b) => b.count - a.count)[0];
    if (busiest && busiest.count > 1 && busiest.count * needArtist > totalSeconds) {
      return (
        `${busiest.name} has ${busiest.count} of the ${songs(items.length)}: to keep ` +
        `${playlist.noRepeatArtistMinutes} minutes between songs by the same artist this playlist needs at ` +
        `least ${busiest.count * playlist.noRepeatArtistMinutes} minutes of music, and has ` +
        `${minutes(totalSeconds)}. Add songs by others or shorten that time, or the artist will repeat sooner.`
      );
    }
  }
  return null;
}
