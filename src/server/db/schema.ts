import { sql } from 'drizzle-orm';
import type { Airs } from '../../common/programs.js';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

// SPEC.md section 3 keeps flags as the texts 'true' / 'false'; the check constraints keep them honest.
const id = () =>
  text('id')
    .primaryKey()
    .default(sql`gen_random_uuid()::text`);
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const flag = (name: string, initial: 'true' | 'false') => text(name).notNull().default(initial);
const flagCheck = (table: string, column: { name: string }) =>
  check(`${table}_${column.name}_flag`, sql`${sql.identifier(column.name)} in ('true', 'false')`);

export const users = pgTable('users', {
  id: id(),
  username: text('username').notNull().unique(),
  password: text('password').notNull(),
});

export const programs = pgTable(
  'programs',
  {
    id: id(),
    title: text('title').notNull(),
    /** Who presents it; none means the station itself (SPEC.md: the speaker defaults to the station name). */
    speaker: text('speaker'),
    /** The ministry a programme serves (youth, family, prayer…), shown on its card; optional. */
    ministryFocus: text('ministry_focus'),
    description: text('description'),
    startTime: text('start_time').notNull(),
    duration: integer('duration').notNull(),
    dayOfWeek: text('day_of_week').notNull(),
    isActive: flag('is_active', 'true'),
    /** What plays in its slot (common/programs.ts `Airs`); null: the rotation goes on, the programme is listed. */
    airs: jsonb('airs').$type<Airs>(),
    /** Came with a fresh station (features/demo); staff remove it in one click, and editing it makes it theirs. */
    sample: boolean('sample').notNull().default(false),
  },
  (t) => [flagCheck('programs', t.isActive), index('programs_day_idx').on(t.dayOfWeek, t.startTime)],
);

/**
 * One-off changes to the schedule on one date in the station's time zone (DESIGN.md section 7): a weekly
 * programme cancelled or replaced that day, or a special service added. They win over the weekly entry.
 */
export const programOverrides = pgTable(
  'program_overrides',
  {
    id: id(),
    date: date('date', { mode: 'string' }).notNull(),
    kind: text('kind', { enum: ['cancel', 'replace', 'add'] }).notNull(),
    /** The weekly programme cancelled or replaced; none for an added special service. */
    programId: text('program_id').references(() => programs.id, { onDelete: 'cascade' }),
    title: text('title'),
    speaker: text('speaker'),
    ministryFocus: text('ministry_focus'),
    description: text('description'),
    startTime: text('start_time'),
    duration: integer('duration'),
    /** What plays in a replacement or added programme's slot, as a weekly programme's `airs`. */
    airs: jsonb('airs').$type<Airs>(),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'program_overrides_kind',
      sql`${t.kind} in ('cancel', 'replace', 'add') and (${t.kind} = 'add') = (${t.programId} is null)`,
    ),
    check(
      'program_overrides_fields',
      sql`${t.kind} = 'cancel' or (${t.title} is not null and ${t.startTime} is not null and ${t.duration} is not null)`,
    ),
    // One change per weekly programme and date (a newer one takes its place); also the date lookup.
    uniqueIndex('program_overrides_date_program_idx').on(t.date, t.programId),
  ],
);

export const prayerRequests = pgTable(
  'prayer_requests',
  {
    id: id(),
    name: text('name'),
    request: text('request').notNull(),
    createdAt: createdAt(),
    isPrivate: flag('is_private', 'false'),
    /** When staff marked it prayed for, and who (DESIGN.md section 7); null while open. */
    prayedAt: timestamp('prayed_at', { withTimezone: true }),
    prayedBy: text('prayed_by'),
    /** When a staff member first had it in front of them in the Prayer tab; null while unread. */
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [flagCheck('prayer_requests', t.isPrivate), index('prayer_requests_created_at').on(t.createdAt)],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: id(),
    username: text('username').notNull(),
    message: text('message').notNull(),
    createdAt: createdAt(),
    /** Who sent it: a keyed hash of their browser's id (or, without one, their address); what a mute applies to. */
    sender: text('sender'),
    /** A keyed hash of the network it came from (an IPv4 address or an IPv6 /64), never the address itself. */
    network: text('network'),
    /** Sent while its sender was muted: shown to that sender alone. */
    muted: boolean('muted').notNull().default(false),
    /** Deleted by staff: gone from everyone's chat, kept for the moderation record. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('chat_messages_created_idx').on(t.createdAt),
    // Whether a sender spoke before a mute of their network is asked on each message from that network.
    index('chat_messages_sender_idx').on(t.sender, t.createdAt),
  ],
);

/** A sender staff muted, until when. */
export const chatMutes = pgTable('chat_mutes', {
  sender: text('sender').primaryKey(),
  /** The muted sender's network: a browser new to it, or one giving no id, is held as muted too. */
  network: text('network'),
  until: timestamp('until', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/** Every moderation action, with who took it (issue 10). */
export const chatModerationLog = pgTable(
  'chat_moderation_log',
  {
    id: id(),
    action: text('action', { enum: ['delete', 'mute', 'unmute', 'blocked_words'] }).notNull(),
    /** The message acted on, or the muted sender, or the new blocked-words count. */
    target: text('target').notNull(),
    detail: text('detail'),
    staffUsername: text('staff_username').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('chat_moderation_log_created_idx').on(t.createdAt)],
);

export const featuredContent = pgTable(
  'featured_content',
  {
    id: id(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    speaker: text('speaker'),
    duration: text('duration'),
    type: text('type').notNull(),
    imageUrl: text('image_url'),
    audioUrl: text('audio_url'),
    playCount: integer('play_count').notNull().default(0),
    isActive: flag('is_active', 'true'),
    /** Came with a fresh station (features/demo); staff remove it in one click, and editing it makes it theirs. */
    sample: boolean('sample').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [flagCheck('featured_content', t.isActive)],
);

export const subtitles = pgTable(
  'subtitles',
  {
    id: id(),
    timestamp: integer('timestamp').notNull(),
    originalText: text('original_text').notNull(),
    language: text('language').notNull(),
    translatedText: text('translated_text').notNull(),
    confidence: integer('confidence').notNull().default(95),
    speaker: text('speaker'),
    /** Recognised from the station's speech, not typed or imported (features/speech). */
    automatic: boolean('automatic').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('subtitles_language_ts_idx').on(t.language, t.timestamp)],
);

export const emailSubscribers = pgTable(
  'email_subscribers',
  {
    id: id(),
    email: text('email').notNull().unique(),
    name: text('name'),
    source: text('source').notNull().default('website'),
    isActive: flag('is_active', 'true'),
    createdAt: createdAt(),
    /** Double opt-in (issue 10): pending until the e-mailed link is opened; only 'confirmed' is active. */
    status: text('status', { enum: ['pending', 'confirmed', 'unsubscribed'] })
      .notNull()
      .default('confirmed'),
  },
  (t) => [
    flagCheck('email_subscribers', t.isActive),
    check(
      'email_subscribers_status_active',
      sql`${t.status} in ('pending', 'confirmed', 'unsubscribed') and (${t.status} = 'confirmed') = (${t.isActive} = 'true')`,
    ),
  ],
);

export const adminUsers = pgTable(
  'admin_users',
  {
    id: id(),
    username: text('username').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['admin', 'superuser', 'presenter'] })
      .notNull()
      .default('admin'),
    isActive: flag('is_active', 'true'),
    createdAt: createdAt(),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    createdBy: text('created_by'),
  },
  (t) => [
    flagCheck('admin_users', t.isActive),
    check('admin_users_role', sql`role in ('admin', 'superuser', 'presenter')`),
  ],
);

/**
 * A presenter's own live-input password: only its SHA-256 is kept (it is random, 144 bits, shown once);
 * gone with the account.
 */
export const presenterSourcePasswords = pgTable('presenter_source_passwords', {
  userId: text('user_id')
    .primaryKey()
    .references(() => adminUsers.id, { onDelete: 'cascade' }),
  passwordHash: text('password_hash').notNull(),
  setAt: timestamp('set_at', { withTimezone: true }).notNull(),
});

/** A signed-in staff session: only the SHA-256 of the bearer token is kept. */
export const adminSessions = pgTable(
  'admin_sessions',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('admin_sessions_user_idx').on(t.userId)],
);

export const audioClips = pgTable('audio_clips', {
  id: id(),
  title: text('title').notNull(),
  description: text('description'),
  duration: integer('duration').notNull(),
  trackTitle: text('track_title'),
  audioUrl: text('audio_url').notNull(),
  mimeType: text('mime_type').notNull().default('audio/webm'),
  fileSize: integer('file_size').notNull(),
  createdAt: createdAt(),
  sessionId: text('session_id'),
  shareCount: integer('share_count').notNull().default(0),
  downloadCount: integer('download_count').notNull().default(0),
});

/** Station-wide key/value settings (what staff change at run time, and one-time markers such as the demo seed). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The broadcaster's own listener measurements, one row per minute (listeners at the minute's end, its peak, time listened). */
export const listenerMinutes = pgTable('listener_minutes', {
  minute: timestamp('minute', { withTimezone: true }).primaryKey(),
  listeners: integer('listeners').notNull(),
  peak: integer('peak').notNull(),
  listeningSeconds: integer('listening_seconds').notNull(),
});

/** One share from the share card or component: its channel and when, nothing about who (DESIGN.md section 7). */
export const shareEvents = pgTable(
  'share_events',
  {
    id: id(),
    channel: text('channel').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('share_events_created_at_idx').on(t.createdAt)],
);

/**
 * The media library (issue 22): every audio file the station can play, with what its analysis measured. The
 * kinds and statuses are src/common/library.ts's MEDIA_KINDS and MEDIA_STATUSES.
 */
export const mediaItems = pgTable(
  'media_items',
  {
    id: id(),
    title: text('title').notNull(),
    artist: text('artist').notNull().default(''),
    album: text('album').notNull().default(''),
    /** What music licences ask for (issue 45): the recording's ISRC, its label, its songwriters, its CCLI song number. */
    isrc: text('isrc').notNull().default(''),
    label: text('label').notNull().default(''),
    composer: text('composer').notNull().default(''),
    ccliSongNumber: text('ccli_song_number').notNull().default(''),
    kind: text('kind', {
      enum: ['music', 'sermon', 'devotion', 'jingle', 'station_id', 'announcement'],
    }).notNull(),
    status: text('status', { enum: ['analysing', 'ready', 'failed'] })
      .notNull()
      .default('analysing'),
    error: text('error'),
    originalName: text('original_name').notNull(),
    /** The file, relative to DATA_DIR: `media/…` (the library's folder) or `uploads/…` (sermon audio from the Content tab). */
    path: text('path').notNull().unique(),
    format: text('format').notNull(),
    sampleRate: integer('sample_rate'),
    channels: integer('channels'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    durationSeconds: doublePrecision('duration_seconds'),
    loudnessLufs: doublePrecision('loudness_lufs'),
    truePeakDbtp: doublePrecision('true_peak_dbtp'),
    cueInSeconds: doublePrecision('cue_in_seconds'),
    cueOutSeconds: doublePrecision('cue_out_seconds'),
    artworkUrl: text('artwork_url'),
    subtitleLanguages: text('subtitle_languages')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** A live programme recorded from the air, waiting for staff to publish it (it does not air until then). */
    draft: boolean('draft').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'media_items_kind',
      sql`${t.kind} in ('music', 'sermon', 'devotion', 'jingle', 'station_id', 'announcement')`,
    ),
    check('media_items_status', sql`${t.status} in ('analysing', 'ready', 'failed')`),
    index('media_items_created_idx').on(t.createdAt),
    index('media_items_status_idx').on(t.status),
  ],
);

/**
 * The Station tab's notification targets (issue 23), one row per target (src/common/notifications.ts's
 * NOTIFICATION_TARGETS): on or off, the events it gets, its settings with their secrets, and the result of its
 * last delivery.
 */
export const notificationTargets = pgTable('notification_targets', {
  target: text('target').primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
  events: jsonb('events').notNull(),
  settings: jsonb('settings').notNull(),
  lastAt: timestamp('last_at', { withTimezone: true }),
  lastOk: boolean('last_ok'),
  lastMessage: text('last_message'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Playlists (issue 23): library items played in order or shuffled, with the rotation rules a station keeps.
 * Those `in_rotation` share the default rotation (what plays whenever nothing is scheduled) by `weight`.
 * The kinds and limits are src/common/playlists.ts's.
 */
export const playlists = pgTable(
  'playlists',
  {
    id: id(),
    name: text('name').notNull(),
    order: text('order', { enum: ['in_order', 'shuffle'] })
      .notNull()
      .default('shuffle'),
    inRotation: boolean('in_rotation').notNull().default(false),
    weight: integer('weight').notNull().default(1),
    /** A library item of this kind is played every `insert_every_songs` songs and/or `insert_every_minutes`. */
    insertKind: text('insert_kind', { enum: ['station_id', 'jingle'] }),
    insertEverySongs: integer('insert_every_songs'),
    insertEveryMinutes: integer('insert_every_minutes'),
    noRepeatTitleMinutes: integer('no_repeat_title_minutes').notNull().default(120),
    noRepeatArtistMinutes: integer('no_repeat_artist_minutes').notNull().default(30),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('playlists_name_idx').on(sql`lower(${t.name})`),
    check('playlists_order', sql`${t.order} in ('in_order', 'shuffle')`),
    check(
      'playlists_insert_kind',
      sql`${t.insertKind} is null or ${t.insertKind} in ('station_id', 'jingle')`,
    ),
    check('playlists_weight', sql`${t.weight} between 1 and 100`),
  ],
);

/** A playlist's items, by position (0, 1, …); an item is in a playlist once at most. */
export const playlistItems = pgTable(
  'playlist_items',
  {
    playlistId: text('playlist_id')
      .notNull()
      .references(() => playlists.id, { onDelete: 'cascade' }),
    mediaItemId: text('media_item_id')
      .notNull()
      .references(() => mediaItems.id),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.playlistId, t.position] }),
    uniqueIndex('playlist_items_media_idx').on(t.playlistId, t.mediaItemId),
    index('playlist_items_media_item_idx').on(t.mediaItemId),
  ],
);

/**
 * Newsletters staff sent to the confirmed subscribers (issue 42), sent in the background at `pace_ms` between
 * messages. `sending` until no delivery is left to try, then `done` (docs/decisions/029).
 */
export const newsletters = pgTable('newsletters', {
  id: id(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  imageUrl: text('image_url'),
  createdBy: text('created_by').notNull(),
  createdAt: createdAt(),
  paceMs: integer('pace_ms').notNull(),
  status: text('status', { enum: ['sending', 'done'] })
    .notNull()
    .default('sending'),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

/**
 * One newsletter to one subscriber. `sending` is written before the SMTP server is asked and `sent` after
 * it accepted; a `sending` row found at start is `unknown` (the station stopped between the two) and is
 * never sent again: at most once (docs/decisions/029). `skipped`: no longer confirmed when its turn came.
 */
export const newsletterDeliveries = pgTable(
  'newsletter_deliveries',
  {
    newsletterId: text('newsletter_id')
      .notNull()
      .references(() => newsletters.id, { onDelete: 'cascade' }),
    subscriberId: text('subscriber_id')
      .notNull()
      .references(() => emailSubscribers.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    state: text('state', { enum: ['queued', 'sending', 'sent', 'failed', 'skipped', 'unknown'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.newsletterId, t.subscriberId] }),
    index('newsletter_deliveries_due_idx').on(t.state, t.nextAt),
  ],
);

/**
 * One row counting the changes to what can air (media_items, playlists, playlist_items), bumped by
 * statement triggers in the same transaction as the change (migration 0017): the schedule keeps the library
 * and the playlists it read until this row changes, whoever wrote (any instance, a restore, the demo seed).
 */
export const catalogueChanges = pgTable(
  'catalogue_changes',
  {
    id: integer('id').primaryKey(),
    version: bigint('version', { mode: 'number' }).notNull(),
  },
  (t) => [check('catalogue_changes_one_row', sql`${t.id} = 1`)],
);

/**
 * The as-run log (issue 45): every item that went on the air, as it aired. What it was is kept as it was then
 * (a library item deleted since still reports); the reports prefer the library's fields where staff fixed them
 * since. `kind`: src/common/as-run.ts AS_RUN_KINDS, `reason`: AS_RUN_REASONS. Listener figures are written once
 * the item has ended and every listener session overlapping it is known (null until then).
 */
export const asRun = pgTable(
  'as_run',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true, precision: 3 }),
    kind: text('kind', { enum: ['library', 'live', 'fill', 'relay'] }).notNull(),
    reason: text('reason', {
      enum: ['schedule', 'rotation', 'fill', 'presenter', 'station_password', 'relay'],
    }).notNull(),
    mediaId: text('media_id'),
    title: text('title').notNull(),
    artist: text('artist').notNull().default(''),
    album: text('album').notNull().default(''),
    label: text('label').notNull().default(''),
    isrc: text('isrc').notNull().default(''),
    composer: text('composer').notNull().default(''),
    ccliSongNumber: text('ccli_song_number').notNull().default(''),
    /** music | speech | jingle (src/common/library.ts LICENCE_CLASSES); live and relayed audio: null. */
    licenceClass: text('licence_class', { enum: ['music', 'speech', 'jingle'] }),
    programmeId: text('programme_id'),
    programmeTitle: text('programme_title'),
    /** The presenter whose programme it aired in, or who was live: their own reports show it. */
    presenterId: text('presenter_id'),
    listenersPeak: integer('listeners_peak'),
    listenersAverage: real('listeners_average'),
    /** Listener sessions that heard any part of it: SoundExchange's performances of this play. */
    performances: integer('performances'),
  },
  (t) => [
    check('as_run_kind', sql`${t.kind} in ('library', 'live', 'fill', 'relay')`),
    check(
      'as_run_reason',
      sql`${t.reason} in ('schedule', 'rotation', 'fill', 'presenter', 'station_password', 'relay')`,
    ),
    index('as_run_started_idx').on(t.startedAt),
  ],
);

/**
 * Listener sessions (issue 45): one row per connection that counts as a listener (src/common/as-run.ts
 * countsAsListener), written when it ends. No address is kept: the country it came from, when known.
 */
export const listenerSessions = pgTable(
  'listener_sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true, precision: 3 }).notNull(),
    /** The mount's kbps. */
    bitrate: smallint('bitrate').notNull(),
    /** browser | app | encoder | relay | other (src/common/as-run.ts PLAYER_KINDS). */
    player: text('player').notNull(),
    country: text('country'),
    /** direct (our /stream) or relay (a relay's status page told of it). */
    via: text('via', { enum: ['direct', 'relay'] }).notNull(),
  },
  (t) => [
    index('listener_sessions_started_idx').on(t.startedAt),
    index('listener_sessions_ended_idx').on(t.endedAt),
  ],
);

/**
 * A library item's words, recognised in the background (features/speech): a recorded programme or an
 * uploaded sermon. `words` holds them as cues (a few seconds of text each) timed from the file's start;
 * staff may edit them (`edited`), and the `.vtt` and the podcast's transcript are made from them.
 */
export const transcripts = pgTable(
  'transcripts',
  {
    mediaItemId: text('media_item_id')
      .primaryKey()
      .references(() => mediaItems.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['waiting', 'working', 'ready', 'failed'] })
      .notNull()
      .default('waiting'),
    engine: text('engine'),
    language: text('language').notNull().default('en'),
    words: jsonb('words').$type<{ text: string; start: number; end: number }[]>().notNull().default([]),
    error: text('error'),
    edited: boolean('edited').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('transcripts_status', sql`${t.status} in ('waiting', 'working', 'ready', 'failed')`),
    index('transcripts_status_idx').on(t.status),
  ],
);
