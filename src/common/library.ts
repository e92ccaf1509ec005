import { z } from 'zod';
import {
  CONTROL_CHARACTER_MESSAGE,
  hasNoStrayControlCharacters,
  isSingleLineText,
  isStorableText,
  SINGLE_LINE_TEXT_MESSAGE,
  STORABLE_TEXT_MESSAGE,
} from './text.js';

/** What a library item is, for staff filters and (later) the schedule's rules. */
export const MEDIA_KINDS = ['music', 'sermon', 'devotion', 'jingle', 'station_id', 'announcement'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

export const MEDIA_KIND_LABELS: Record<MediaKind, string> = {
  music: 'Music',
  sermon: 'Sermon',
  devotion: 'Devotion',
  jingle: 'Jingle',
  station_id: 'Station identification',
  announcement: 'Announcement',
};

/**
 * What music licences tell apart (issue 45): music is reported, speech (sermons, devotions, announcements)
 * and jingles (station identification included) are left out where a format asks for music only. Read from
 * the item's kind, so there is one place to set it.
 */
export const LICENCE_CLASSES = ['music', 'speech', 'jingle'] as const;
export type LicenceClass = (typeof LICENCE_CLASSES)[number];
export const licenceClassOf = (kind: MediaKind): LicenceClass =>
  kind === 'music' ? 'music' : kind === 'jingle' || kind === 'station_id' ? 'jingle' : 'speech';

/** An ISRC as the standard writes it (ISO 3901): CC-XXX-YY-NNNNN without the hyphens, upper case. */
export const normaliseIsrc = (text: string) => text.replace(/[\s-]/g, '').toUpperCase();
export const ISRC_PATTERN = /^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$/;
export const ISRC_MESSAGE =
  'ISRC must be 12 characters like US-RC1-76-07839 (country, registrant, year, number)';
/** CCLI song numbers are whole numbers (SongSelect shows them as "CCLI Song # 7115744"). */
export const CCLI_SONG_NUMBER_PATTERN = /^[0-9]{1,9}$/;
export const CCLI_SONG_NUMBER_MESSAGE = 'CCLI song number must be the number SongSelect shows, digits only';

/** Analysis runs in the background after an upload: until it ends the item is not played. */
export const MEDIA_STATUSES = ['analysing', 'ready', 'failed'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

/** Largest upload by default, in MB (MAX_UPLOAD_MB). */
export const DEFAULT_MAX_UPLOAD_MB = 500;

/** One item of the media library as staff see it (GET /api/library). */
export const mediaItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  artist: z.string(),
  album: z.string(),
  /** The recording's ISRC (12 characters, no hyphens), '' when unknown; read from the file's tags (ID3 TSRC). */
  isrc: z.string(),
  /** Record label, songwriters (as one line), CCLI song number: '' when unknown. */
  label: z.string(),
  composer: z.string(),
  ccli_song_number: z.string(),
  kind: z.enum(MEDIA_KINDS),
  status: z.enum(MEDIA_STATUSES),
  /** Why analysis failed, when it did. */
  error: z.string().nullable(),
  /** The file's name as uploaded (or found in the media folder). */
  original_name: z.string(),
  /** The container/codec found in the file, e.g. 'mp3', 'flac', 'aac'. */
  format: z.string(),
  sample_rate: z.number().int().nullable(),
  channels: z.number().int().nullable(),
  size_bytes: z.number().int().nonnegative(),
  duration_seconds: z.number().nullable(),
  /** EBU R128 integrated loudness (LUFS) and true peak (dBTP), once measured. */
  loudness_lufs: z.number().nullable(),
  true_peak_dbtp: z.number().nullable(),
  /** Where sound starts and ends, seconds from the file's start (silence either side is trimmed on air). */
  cue_in_seconds: z.number().nullable(),
  cue_out_seconds: z.number().nullable(),
  artwork_url: z.string().nullable(),
  /** Subtitle languages kept beside the file (`.LANG.vtt`). */
  subtitle_languages: z.array(z.string()),
  /** A live programme recorded from the air, waiting for staff to publish it; it does not air until then. */
  draft: z.boolean(),
  created_at: z.string(),
});
export type MediaItem = z.infer<typeof mediaItemSchema>;

export const mediaListSchema = z.object({
  items: z.array(mediaItemSchema),
  total: z.number().int().nonnegative(),
});
export type MediaList = z.infer<typeof mediaListSchema>;

/** GET /api/library?search=&kind=&offset=&limit= */
export const mediaListQuerySchema = z.object({
  search: z.string().trim().max(200).refine(isStorableText, STORABLE_TEXT_MESSAGE).optional(),
  kind: z.enum(MEDIA_KINDS).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

const tagText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} is too long (at most ${max} characters)`)
    .refine(isStorableText, STORABLE_TEXT_MESSAGE)
    .refine(hasNoStrayControlCharacters, CONTROL_CHARACTER_MESSAGE)
    .refine(isSingleLineText, `${label} ${SINGLE_LINE_TEXT_MESSAGE}`);

/** PATCH /api/library/:id: the fields staff edit; a field left out keeps its value. */
export const mediaUpdateSchema = z
  .object({
    title: tagText('Title', 200).pipe(z.string().min(1, 'Title is required')),
    artist: tagText('Artist', 200),
    album: tagText('Album', 200),
    isrc: tagText('ISRC', 20)
      .transform(normaliseIsrc)
      .refine((isrc) => isrc === '' || ISRC_PATTERN.test(isrc), ISRC_MESSAGE),
    label: tagText('Label', 200),
    composer: tagText('Composer', 300),
    ccli_song_number: tagText('CCLI song number', 12).refine(
      (n) => n === '' || CCLI_SONG_NUMBER_PATTERN.test(n),
      CCLI_SONG_NUMBER_MESSAGE,
    ),
    kind: z.enum(MEDIA_KINDS, { error: `Kind must be one of: ${MEDIA_KINDS.join(', ')}` }),
  })
  .partial()
  .strict();
export type MediaUpdate = z.infer<typeof mediaUpdateSchema>;

/** The fields set on many items at once (a whole album's label and songwriters); per-recording fields stay out. */
export const MEDIA_BULK_FIELDS = ['artist', 'album', 'label', 'composer', 'kind'] as const;
export const MAX_BULK_ITEMS = 500;

/** POST /api/library/bulk: the same changes to every item named; all or nothing. */
export const mediaBulkUpdateSchema = z
  .object({
    ids: z
      .array(z.string().min(1).max(100), { error: 'ids must be a list of library item ids' })
      .min(1, 'Choose at least one item')
      .max(MAX_BULK_ITEMS, `At most ${MAX_BULK_ITEMS} items at once`),
    changes: mediaUpdateSchema
      .pick({ artist: true, album: true, label: true, composer: true, kind: true })
      .strict()
      .refine((changes) => Object.keys(changes).length > 0, 'Say what to change'),
  })
  .strict();
export type MediaBulkUpdate = z.infer<typeof mediaBulkUpdateSchema>;
export const mediaBulkResultSchema = z.object({ updated: z.number().int().nonnegative() });
export const bulkItemsNotFound = (count: number) =>
  `${count} of these items ${count === 1 ? 'is' : 'are'} no longer in the library; nothing was changed`;

/** POST /api/library/:id/preview: a short-lived address the browser's audio element can play. */
export const mediaPreviewSchema = z.object({ url: z.string() });

/** POST /api/library: the multipart field holding the audio file (one file per request). */
export const MEDIA_UPLOAD_FIELD = 'file';
/** POST /api/library/:id/artwork: the multipart field holding the picture (as /api/upload-image). */
export const MEDIA_ARTWORK_FIELD = 'image';
/** How long a preview address plays, in seconds. */
export const PREVIEW_LINK_SECONDS = 10 * 60;

/**
 * A library item's public audio address: what a featured item's audioUrl holds to use that item's audio.
 * It plays while a featured item uses it, and answers 404 otherwise.
 */
export const libraryAudioUrl = (id: string) => `/media/${id}`;

export const MEDIA_NOT_FOUND = 'Library item not found';
export const INVALID_MEDIA_FILE = 'Please upload an audio file: MP3, AAC/M4A, WAV, FLAC, Ogg Vorbis or Opus';
export const NO_AUDIO_STREAM = 'This file holds no audio. Please upload an audio file.';
export const TRUNCATED_MEDIA_FILE = 'This audio file is cut short. Please upload the whole file.';
/**
 * An upload the server has no program to read (415): no ffmpeg on it (docs/decisions/031). `mp3Taken`: MP3s
 * are still checked and played without it (mpg123).
 */
export const cannotReadWithoutFfmpeg = (mp3Taken: boolean) =>
  `This server cannot read this file: ffmpeg is not installed on it. ${mp3Taken ? 'MP3 files can still be uploaded. ' : ''}To take it, the station's administrator installs ffmpeg (on Debian or Ubuntu: apt-get install ffmpeg).`;
export const mediaTooLarge = (maxMb: number) => `Please upload an audio file smaller than ${maxMb} MB`;
/** DELETE /api/library/:id while a featured item plays the item's audio (409). */
export const mediaInUse = (featuredTitle: string) =>
  `This audio is used by the featured item '${featuredTitle}'. Remove it there first, then delete it here.`;
export const mediaScheduled = (programmeTitle: string) =>
  `The programme '${programmeTitle}' airs this recording. Change what it airs in the Schedule tab first, then delete it here.`;
export const PREVIEW_LINK_EXPIRED = 'This preview has expired. Press play again.';

// ---- Live programmes recorded from the air, published in one click ----

/** POST /api/library/:id/publish: the featured sermon's text; the item's title and a default otherwise. */
export const mediaPublishSchema = z
  .object({
    title: tagText('Title', 200).pipe(z.string().min(1, 'Title is required')),
    description: z
      .string({ error: 'Description must be text' })
      .trim()
      .max(2000, 'Description is too long (at most 2000 characters)')
      .refine(isStorableText, STORABLE_TEXT_MESSAGE)
      .refine(hasNoStrayControlCharacters, CONTROL_CHARACTER_MESSAGE),
  })
  .partial()
  .strict();
export type MediaPublish = z.infer<typeof mediaPublishSchema>;

/** What a publish made: the library item (no longer a draft) and the featured sermon that plays it. */
export const mediaPublishedSchema = z.object({
  item: mediaItemSchema,
  featured: z.object({ id: z.string(), title: z.string(), audioUrl: z.string() }),
});
export type MediaPublished = z.infer<typeof mediaPublishedSchema>;

/** The featured sermon's description when staff give none. */
export const recordedLiveDescription = (stationName: string, date: string) =>
  `Recorded live on ${stationName} on ${date}.`;
export const MEDIA_NOT_READY_TO_PUBLISH =
  'This recording is still being measured. Publish it once its loudness shows.';
export const MEDIA_FAILED_TO_PUBLISH = 'This recording could not be measured, so it cannot be published.';
export const mediaAlreadyPublished = (featuredTitle: string) =>
  `This recording is already published as the featured sermon '${featuredTitle}'.`;
