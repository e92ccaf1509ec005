import { z } from 'zod';
import { idParamsSchema } from './http.js';
import { isStorableText, STORABLE_TEXT_MESSAGE } from './text.js';

export const DAYS_OF_WEEK = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;
export type DayOfWeek = (typeof DAYS_OF_WEEK)[number];

/** 'monday' -> 'Monday'. */
export const dayLabel = (day: DayOfWeek) => day.charAt(0).toUpperCase() + day.slice(1);

/** SPEC.md section 3: today's schedule item as the listener sees it. */
export const programSchema = z.object({
  id: z.string(),
  title: z.string(),
  startTime: z.string(),
  duration: z.union([z.number(), z.string()]),
  speaker: z.string().optional(),
  ministryFocus: z.string().optional(),
  description: z.string().nullable().optional(),
  status: z.string(),
  isCurrent: z.boolean(),
  isLive: z.boolean(),
  isFuture: z.boolean(),
});
export type Program = z.infer<typeof programSchema>;

export const MINUTES_PER_DAY = 24 * 60;

/** Minutes since midnight of an 'HH:MM' start time. */
export const minutesOf = (startTime: string) => {
  const [h = '0', m = '0'] = startTime.split(':');
  return Number(h) * 60 + Number(m);
};

/** 'HH:MM' of a minute of the day (past midnight wraps round). */
export const clockOf = (minutes: number) => {
  const m = ((minutes % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

/** '12:00–13:00' for a programme starting at 12:00 for 60 minutes. */
export const timeRange = (startTime: string, duration: number) =>
  `${startTime}–${clockOf(minutesOf(startTime) + duration)}`;

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A 'YYYY-MM-DD' that names a real day between 1970 and 9999. */
export const isCalendarDate = (date: string) => {
  const match = DATE_PATTERN.exec(date);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return y >= 1970 && day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
};

/** The weekday of a calendar date (no time zone involved: a date is a date). */
export const dayOfDate = (date: string): DayOfWeek =>
  DAYS_OF_WEEK[new Date(`${date}T00:00:00Z`).getUTCDay()]!;

/** The calendar date `days` after (or before) `date`. */
export const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

// ---- The Schedule tab (DESIGN.md section 7): weekly programmes and one-off dates ----

export const MAX_PROGRAM_TITLE_LENGTH = 200;
export const MAX_SPEAKER_LENGTH = 200;
export const MAX_MINISTRY_FOCUS_LENGTH = 100;
export const MAX_PROGRAM_DESCRIPTION_LENGTH = 2000;

const requiredText = (label: string, max: number) =>
  z
    .string({
      error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be text`),
    })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max.toLocaleString('en-US')} characters`)
    .refine(isStorableText, `${label} ${STORABLE_TEXT_MESSAGE}`);

/** Optional text: blank or null is stored as nothing. */
const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max.toLocaleString('en-US')} characters`)
    .refine(isStorableText, `${label} ${STORABLE_TEXT_MESSAGE}`)
    .nullish()
    .transform((text) => text || null);

export const START_TIME_MESSAGE = 'Start time must be HH:MM, from 00:00 to 23:59';
export const DURATION_MESSAGE = 'Duration must be a whole number of minutes from 1 to 1440';

// ---- What a programme airs (the schedule decides what plays) ----

export const AIRS_KINDS = ['rotation', 'playlist', 'recording', 'newest', 'live'] as const;
export type AirsKind = (typeof AIRS_KINDS)[number];
export const AIRS_KIND_LABELS: Record<AirsKind, string> = {
  rotation: 'The default rotation',
  playlist: 'A playlist',
  recording: 'A recording from the library',
  newest: 'The newest recording of a kind',
  live: 'Live from a presenter',
};
/** Kinds of library item a weekly slot can pick up by itself ("this week's devotion"). */
export const NEWEST_KINDS = ['sermon', 'devotion'] as const;
/** On time: what plays fades out over the crossfade at the start (and end). After the current: it finishes first. */
export const START_MODES = ['on_time', 'after_current'] as const;
export type StartMode = (typeof START_MODES)[number];
/** A recording longer than its slot: faded at the slot's end, or allowed to finish. */
export const OVERRUN_MODES = ['fade', 'finish'] as const;

const airsIdSchema = (label: string) =>
  z.string({ error: `${label} is required` }).pipe(idParamsSchema.shape.id);
const airsTiming = {
  start: z.enum(START_MODES, { error: "start must be 'on_time' or 'after_current'" }).default('on_time'),
  /** What follows a short recording or covers a presenter who is not on: a playlist, or none for the default rotation. */
  fillPlaylistId: airsIdSchema('fillPlaylistId')
    .nullish()
    .transform((id) => id ?? null),
};
const overrunSchema = z.enum(OVERRUN_MODES, { error: "overrun must be 'fade' or 'finish'" }).default('fade');

export const airsSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('rotation'), ...airsTiming }),
    z.object({ kind: z.literal('playlist'), playlistId: airsIdSchema('playlistId'), ...airsTiming }),
    z.object({
      kind: z.literal('recording'),
      mediaId: airsIdSchema('mediaId'),
      overrun: overrunSchema,
      ...airsTiming,
    }),
    z.object({
      kind: z.literal('newest'),
      mediaKind: z.enum(NEWEST_KINDS, { error: "mediaKind must be 'sermon' or 'devotion'" }),
      overrun: overrunSchema,
      ...airsTiming,
    }),
    z.object({ kind: z.literal('live'), presenterId: airsIdSchema('presenterId'), ...airsTiming }),
  ],
  {
    error: (issue) =>
      issue.code === 'invalid_union' ? `airs.kind must be one of: ${AIRS_KINDS.join(', ')}` : undefined,
  },
);
export type Airs = z.output<typeof airsSchema>;
/** `Airs` as the station answers it: plain data, no defaults or transforms (they only apply on the way in). */
export const airsResponseSchema = z.custom<Airs>((value) => airsSchema.safeParse(value).success);
export const DEFAULT_AIRS: Airs = { kind: 'rotation', start: 'on_time', fillPlaylistId: null };

/** GET /api/admin/schedule/upcoming?hours=: the next hours as they will air, item by item. */
export const UPCOMING_PATH = '/api/admin/schedule/upcoming';
export const MAX_UPCOMING_HOURS = 48;
export const upcomingQuerySchema = z.object({
  hours: z.coerce
    .number({ error: `hours must be a number from 1 to ${MAX_UPCOMING_HOURS}` })
    .int(`hours must be a whole number from 1 to ${MAX_UPCOMING_HOURS}`)
    .min(1, `hours must be a number from 1 to ${MAX_UPCOMING_HOURS}`)
    .max(MAX_UPCOMING_HOURS, `hours must be a number from 1 to ${MAX_UPCOMING_HOURS}`)
    .default(24),
});

export const UPCOMING_FLAGS = [
  'gap',
  'overrun',
  'missing_recording',
  'missing_playlist',
  'rules_relaxed',
  'no_presenter',
] as const;
export const upcomingEntrySchema = z.object({
  /** ISO times: when it starts and ends on air. */
  at: z.string(),
  until: z.string(),
  /** An item from the library, a live programme's presenter, or nothing at all (flagged as a gap). */
  kind: z.enum(['item', 'live', 'gap']),
  title: z.string(),
  artist: z.string().nullable(),
  mediaId: z.string().nullable(),
  /** The programme it airs in, none for the default rotation between programmes. */
  programme: z.object({ id: z.string(), title: z.string() }).nullable(),
  /** Problems seen before they happen, in plain words. */
  flags: z.array(z.object({ kind: z.enum(UPCOMING_FLAGS), message: z.string() })),
});
export type UpcomingEntry = z.infer<typeof upcomingEntrySchema>;
export const upcomingSchema = z.object({
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  entries: z.array(upcomingEntrySchema),
});
export type Upcoming = z.infer<typeof upcomingSchema>;

/** What a programme is, weekly or on one date: title, speaker, focus, description, start and length. */
export const programFieldsSchema = z.object({
  title: requiredText('Title', MAX_PROGRAM_TITLE_LENGTH),
  /** Blank means the station presents it; listeners then see the station name (SPEC.md section 3). */
  speaker: optionalText('Speaker', MAX_SPEAKER_LENGTH),
  ministryFocus: optionalText('Ministry focus', MAX_MINISTRY_FOCUS_LENGTH),
  description: optionalText('Description', MAX_PROGRAM_DESCRIPTION_LENGTH),
  startTime: z.string({ error: START_TIME_MESSAGE }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, START_TIME_MESSAGE),
  duration: z
    .number({ error: DURATION_MESSAGE })
    .int(DURATION_MESSAGE)
    .min(1, DURATION_MESSAGE)
    .max(MINUTES_PER_DAY, DURATION_MESSAGE),
  /** What plays in the slot; by default the rotation goes on and the programme is only listed. */
  airs: airsSchema.default(DEFAULT_AIRS),
});

const daySchema = z.enum(DAYS_OF_WEEK, { error: `Day must be one of ${DAYS_OF_WEEK.join(', ')}` });
const isActiveSchema = z.boolean({ error: 'isActive must be true or false' });
/** Sent again after the station refused a save for an overlap: keep both programmes. */
const confirmOverlapSchema = z.boolean({ error: 'confirmOverlap must be true or false' }).optional();

/** A weekly programme as staff add it. */
export const programBodySchema = programFieldsSchema.extend({
  dayOfWeek: daySchema,
  isActive: isActiveSchema.default(true),
  confirmOverlap: confirmOverlapSchema,
});
export type ProgramBody = z.input<typeof programBodySchema>;

/** A change to a weekly programme: any of its fields (deactivating is `isActive: false`). */
export const programPatchSchema = programFieldsSchema
  .extend({ dayOfWeek: daySchema, isActive: isActiveSchema })
  .partial()
  // No default here: a patch without `airs` (switching a programme off) keeps what it airs.
  .extend({ airs: airsSchema.optional(), confirmOverlap: confirmOverlapSchema });
export type ProgramPatch = z.input<typeof programPatchSchema>;

/** A weekly programme as the Schedule tab shows it, with the active programmes it overlaps. */
export const scheduledProgramSchema = z.object({
  id: z.string(),
  title: z.string(),
  speaker: z.string().nullable(),
  ministryFocus: z.string().nullable(),
  description: z.string().nullable(),
  startTime: z.string(),
  duration: z.number(),
  dayOfWeek: z.enum(DAYS_OF_WEEK),
  isActive: z.boolean(),
  airs: airsResponseSchema,
  overlapsWith: z.array(z.string()),
  /** Came with a fresh station (sample content) and was never edited: the Schedule tab marks it. */
  sample: z.boolean().optional(),
});
export type ScheduledProgram = z.infer<typeof scheduledProgramSchema>;

/** Every weekly programme, active or not, by day and start time; times in the station's time zone. */
export const weekScheduleSchema = z.object({
  timeZone: z.string(),
  /** Today's date in the station's time zone. */
  today: z.string(),
  programs: z.array(scheduledProgramSchema),
});
export type WeekSchedule = z.infer<typeof weekScheduleSchema>;

export const ONE_OFF_KINDS = ['cancel', 'replace', 'add'] as const;
export type OneOffKind = (typeof ONE_OFF_KINDS)[number];

const dateSchema = (label: string) =>
  z
    .string({ error: `${label} must be a date as YYYY-MM-DD` })
    .refine(isCalendarDate, `${label} must be a real date as YYYY-MM-DD`);
const programIdSchema = z.string({ error: 'programId is required' }).pipe(idParamsSchema.shape.id);

/** A one-off change on one date: a weekly programme cancelled or replaced, or a special service added. */
export const oneOffBodySchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('cancel'), date: dateSchema('date'), programId: programIdSchema }),
    programFieldsSchema.extend({
      kind: z.literal('replace'),
      date: dateSchema('date'),
      programId: programIdSchema,
      confirmOverlap: confirmOverlapSchema,
    }),
    programFieldsSchema.extend({
      kind: z.literal('add'),
      date: dateSchema('date'),
      confirmOverlap: confirmOverlapSchema,
    }),
  ],
  {
    error: (issue) =>
      issue.code === 'invalid_union' ? "kind must be 'cancel', 'replace' or 'add'" : undefined,
  },
);
export type OneOffBody = z.input<typeof oneOffBodySchema>;

/** The longest stretch of dates one listing covers. */
export const MAX_ONE_OFF_RANGE_DAYS = 366;

/** Which one-off changes to list: from a date (default today) to a date (default a year on). */
export const oneOffRangeQuerySchema = z
  .object({ from: dateSchema('from').optional(), to: dateSchema('to').optional() })
  .refine(({ from, to }) => !from || !to || from <= to, { message: 'to must not be before from' });

export const oneOffSchema = z.object({
  id: z.string(),
  date: z.string(),
  kind: z.enum(ONE_OFF_KINDS),
  programId: z.string().nullable(),
  title: z.string().nullable(),
  speaker: z.string().nullable(),
  ministryFocus: z.string().nullable(),
  description: z.string().nullable(),
  startTime: z.string().nullable(),
  duration: z.number().nullable(),
  airs: airsResponseSchema.nullable(),
  /** The weekly programme cancelled or replaced, as it stands. */
  replaces: z.object({ title: z.string(), startTime: z.string(), duration: z.number() }).nullable(),
});
export type OneOff = z.infer<typeof oneOffSchema>;
export const oneOffListSchema = z.array(oneOffSchema);

/** A programme a change would share the air with: its title and when it airs ('Monday 12:00–13:00'). */
export const overlapSchema = z.object({ title: z.string(), when: z.string() });
export type Overlap = z.infer<typeof overlapSchema>;

/**
 * What the station answers when asked, before a save, whether the change would overlap anything. Asking
 * first keeps an overlap a question for staff rather than a refused request (decision 015).
 */
export const overlapCheckSchema = z.object({ overlaps: z.array(overlapSchema) });
export type OverlapCheck = z.infer<typeof overlapCheckSchema>;

/** 'This overlaps "Midday Word" (Monday 12:00–13:00).' */
export function overlapSummary(overlaps: Overlap[]) {
  const names = overlaps.map((o) => `"${o.title}" (${o.when})`);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  return `This overlaps ${list}.`;
}

export const PROGRAMS_PATH = '/api/programs';
export const ONE_OFFS_PATH = '/api/programs/one-offs';
/** Where a new weekly programme, a change to one (`/api/programs/:id/check`) or a one-off is checked. */
export const PROGRAM_CHECK_PATH = '/api/programs/check';
export const programChangeCheckPath = (id: string) => `${PROGRAMS_PATH}/${encodeURIComponent(id)}/check`;
export const ONE_OFF_CHECK_PATH = '/api/programs/one-offs/check';
export const PROGRAM_NOT_FOUND = 'Programme not found';
export const ONE_OFF_NOT_FOUND = 'One-off change not found';
export { idParamsSchema as programIdParamsSchema } from './http.js';
