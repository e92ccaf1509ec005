import { z } from 'zod';
import { MEDIA_KINDS, MEDIA_STATUSES } from './library.js';
import {
  CONTROL_CHARACTER_MESSAGE,
  hasNoStrayControlCharacters,
  isSingleLineText,
  isStorableText,
  SINGLE_LINE_TEXT_MESSAGE,
  STORABLE_TEXT_MESSAGE,
} from './text.js';

/** How a playlist plays its items: one after another as listed, or shuffled with no repeat until all have played. */
export const PLAYLIST_ORDERS = ['in_order', 'shuffle'] as const;
export type PlaylistOrder = (typeof PLAYLIST_ORDERS)[number];
export const PLAYLIST_ORDER_LABELS: Record<PlaylistOrder, string> = {
  in_order: 'In order',
  shuffle: 'Shuffled',
};

/** The library kinds a playlist can insert between its songs. */
export const INSERT_KINDS = ['station_id', 'jingle'] as const;
export type InsertKind = (typeof INSERT_KINDS)[number];

/** The rules' limits and defaults (issue 23: no repeat of a title within 120 minutes, of an artist within 30). */
export const PLAYLIST_LIMITS = {
  name: 100,
  weight: { min: 1, max: 100 },
  insertEverySongs: { min: 1, max: 50 },
  insertEveryMinutes: { min: 1, max: 240 },
  noRepeatMinutes: { min: 0, max: 1440 },
  items: 2000,
} as const;
export const DEFAULT_NO_REPEAT_TITLE_MINUTES = 120;
export const DEFAULT_NO_REPEAT_ARTIST_MINUTES = 30;

const wholeNumber = (label: string, { min, max }: { min: number; max: number }) =>
  z
    .number({ error: `${label} must be a whole number from ${min} to ${max}` })
    .int(`${label} must be a whole number from ${min} to ${max}`)
    .min(min, `${label} must be a whole number from ${min} to ${max}`)
    .max(max, `${label} must be a whole number from ${min} to ${max}`);

const nameSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'Name is required' : 'Name must be text') })
  .trim()
  .min(1, 'Name is required')
  .max(PLAYLIST_LIMITS.name, `Name is too long (at most ${PLAYLIST_LIMITS.name} characters)`)
  .refine(isStorableText, `Name ${STORABLE_TEXT_MESSAGE}`)
  .refine(hasNoStrayControlCharacters, `Name ${CONTROL_CHARACTER_MESSAGE}`)
  .refine(isSingleLineText, `Name ${SINGLE_LINE_TEXT_MESSAGE}`);

const fields = {
  name: nameSchema,
  order: z.enum(PLAYLIST_ORDERS, { error: `Order must be one of: ${PLAYLIST_ORDERS.join(', ')}` }),
  in_rotation: z.boolean({ error: 'In rotation must be true or false' }),
  weight: wholeNumber('Weight', PLAYLIST_LIMITS.weight),
  insert_kind: z
    .enum(INSERT_KINDS, { error: `Insert kind must be one of: ${INSERT_KINDS.join(', ')}, or null` })
    .nullable(),
  insert_every_songs: wholeNumber('Insert every (songs)', PLAYLIST_LIMITS.insertEverySongs).nullable(),
  insert_every_minutes: wholeNumber('Insert every (minutes)', PLAYLIST_LIMITS.insertEveryMinutes).nullable(),
  no_repeat_title_minutes: wholeNumber('No repeat of a title (minutes)', PLAYLIST_LIMITS.noRepeatMinutes),
  no_repeat_artist_minutes: wholeNumber('No repeat of an artist (minutes)', PLAYLIST_LIMITS.noRepeatMinutes),
};

export type PlaylistSettings = {
  [K in keyof typeof fields]: z.infer<(typeof fields)[K]>;
};

/** The settings every playlist starts with. */
export const PLAYLIST_DEFAULTS: Omit<PlaylistSettings, 'name'> = {
  order: 'shuffle',
  in_rotation: false,
  weight: 1,
  insert_kind: null,
  insert_every_songs: null,
  insert_every_minutes: null,
  no_repeat_title_minutes: DEFAULT_NO_REPEAT_TITLE_MINUTES,
  no_repeat_artist_minutes: DEFAULT_NO_REPEAT_ARTIST_MINUTES,
};

export const INSERT_RULE_NEEDS_KIND =
  'Choose what to insert (station identification or jingle) before saying how often.';
export const INSERT_RULE_NEEDS_INTERVAL =
  'Say how often to insert it: every so many songs, every so many minutes, or both.';

/** The insert rule is whole or absent: a kind with at least one interval, or neither. */
export function insertRuleProblem(
  settings: Pick<PlaylistSettings, 'insert_kind' | 'insert_every_songs' | 'insert_every_minutes'>,
): string | undefined {
  const interval = settings.insert_every_songs !== null || settings.insert_every_minutes !== null;
  if (!settings.insert_kind && interval) return INSERT_RULE_NEEDS_KIND;
  if (settings.insert_kind && !interval) return INSERT_RULE_NEEDS_INTERVAL;
  return undefined;
}

/** POST /api/admin/playlists: a name, and any setting that differs from PLAYLIST_DEFAULTS. */
export const playlistCreateSchema = z
  .object({ ...z.object(fields).partial().shape, name: fields.name })
  .strict();
export type PlaylistCreate = z.input<typeof playlistCreateSchema>;

/** PATCH /api/admin/playlists/:id: the settings sent change, the rest keep their value. */
export const playlistUpdateSchema = z.object(fields).partial().strict();
export type PlaylistUpdate = z.input<typeof playlistUpdateSchema>;

/** A library item's id as a playlist names it. */
export const mediaIdSchema = z
  .string({ error: 'Each item must be a library item id' })
  .min(1, 'Each item must be a library item id')
  .max(100, 'Each item must be a library item id')
  .regex(/^[\w-]+$/, 'Each item must be a library item id');

/** PUT /api/admin/playlists/:id/items: the playlist's items, in the order they play. */
export const playlistItemsBodySchema = z
  .object({
    media_ids: z
      .array(mediaIdSchema, { error: 'media_ids must be a list of library item ids' })
      .max(PLAYLIST_LIMITS.items, `A playlist holds at most ${PLAYLIST_LIMITS.items} items`)
      .refine((ids) => new Set(ids).size === ids.length, 'Each library item can be in a playlist only once'),
  })
  .strict();
export type PlaylistItemsBody = z.infer<typeof playlistItemsBodySchema>;

/** A playlist as the Playlists tab lists it. */
export const playlistSchema = z.object({
  id: z.string(),
  name: z.string(),
  order: z.enum(PLAYLIST_ORDERS),
  in_rotation: z.boolean(),
  weight: z.number().int(),
  insert_kind: z.enum(INSERT_KINDS).nullable(),
  insert_every_songs: z.number().int().nullable(),
  insert_every_minutes: z.number().int().nullable(),
  no_repeat_title_minutes: z.number().int(),
  no_repeat_artist_minutes: z.number().int(),
  /** Items listed, and how many of them are measured and play (analysis done). */
  item_count: z.number().int(),
  ready_count: z.number().int(),
  /** Length of the items that play, in seconds. */
  duration_seconds: z.number(),
  /** Why the playlist cannot keep its rules, in plain words; null when it can. */
  warning: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Playlist = z.infer<typeof playlistSchema>;

export const playlistListSchema = z.object({ playlists: z.array(playlistSchema) });
export type PlaylistList = z.infer<typeof playlistListSchema>;

/** One item of a playlist, with what staff need to recognise it. */
export const playlistItemSchema = z.object({
  media_id: z.string(),
  title: z.string(),
  artist: z.string(),
  kind: z.enum(MEDIA_KINDS),
  status: z.enum(MEDIA_STATUSES),
  duration_seconds: z.number().nullable(),
});
export type PlaylistItem = z.infer<typeof playlistItemSchema>;

/** GET /api/admin/playlists/:id */
export const playlistDetailSchema = playlistSchema.extend({ items: z.array(playlistItemSchema) });
export type PlaylistDetail = z.infer<typeof playlistDetailSchema>;

export const PLAYLIST_NOT_FOUND = 'Playlist not found';
export const playlistNameTaken = (name: string) =>
  `A playlist named '${name}' already exists. Please choose another name.`;
export const unknownMediaItems = (count: number) =>
  count === 1
    ? 'One of these items is no longer in the library. Reload the playlist and try again.'
    : `${count} of these items are no longer in the library. Reload the playlist and try again.`;
/** DELETE /api/library/:id while a playlist plays the item (409). */
export const mediaInPlaylist = (playlistName: string) =>
  `This item is in the playlist '${playlistName}'. Remove it there first, then delete it here.`;
