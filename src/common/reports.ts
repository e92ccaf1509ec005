import { z } from 'zod';
import { PLAYER_KINDS } from './as-run.js';

/** The licence report formats (docs/reports.md names the version of each format followed). */
export const LICENCE_FORMATS = ['soundexchange', 'ccli', 'csv'] as const;
export type LicenceFormat = (typeof LICENCE_FORMATS)[number];

export const LICENCE_FORMAT_LABELS: Record<LicenceFormat, string> = {
  soundexchange: 'SoundExchange report of use (webcasters, tab-separated)',
  ccli: 'CCLI song usage (CSV)',
  csv: 'As-run log (CSV)',
};

/** The longest period a report covers, in days: a year, a leap year included. */
export const MAX_REPORT_DAYS = 366;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isCalendarDate = (text: string) => {
  if (!DATE.test(text)) return false;
  const at = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === text;
};
const dateField = (name: string) =>
  z
    .string({ error: `${name} is required (a date, YYYY-MM-DD)` })
    .refine(isCalendarDate, `${name} must be a date written YYYY-MM-DD`);

export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

export const PERIOD_REVERSED =
  'The period ends before it begins: choose a "to" date on or after the "from" date';
export const PERIOD_TOO_LONG = `A report covers at most ${MAX_REPORT_DAYS} days: choose a shorter period`;

/** A period of whole days in the station's time zone, `from` and `to` included. */
const periodFields = {
  from: dateField('from'),
  to: dateField('to'),
  /** Only what aired in this programme (a presenter's reports always are their own programmes). */
  programme: z
    .string()
    .max(100)
    .regex(/^[\w-]+$/, 'programme is not a valid programme id')
    .optional(),
};

/** The period's own rules, on any query that holds one: in order, and at most MAX_REPORT_DAYS long. */
const checkedPeriod = <T extends z.ZodType<{ from: string; to: string }>>(schema: T) =>
  schema
    .refine((p) => p.from <= p.to, { message: PERIOD_REVERSED, path: ['to'] })
    .refine((p) => daysBetween(p.from, p.to) <= MAX_REPORT_DAYS, { message: PERIOD_TOO_LONG, path: ['to'] });

export const reportPeriodSchema = checkedPeriod(z.object(periodFields));
export type ReportPeriod = z.infer<typeof reportPeriodSchema>;

export const UNKNOWN_FORMAT = `format must be one of: ${LICENCE_FORMATS.join(', ')}`;

/** GET /api/admin/reports/licence and /licence/check. */
export const licenceQuerySchema = checkedPeriod(
  z.object({
    ...periodFields,
    format: z.enum(LICENCE_FORMATS, { error: UNKNOWN_FORMAT }),
    /** SoundExchange's one-letter transmission category of the service (their list, A to L). */
    category: z
      .string()
      .regex(
        /^[A-L]$/,
        'category must be the one-letter transmission category SoundExchange gave the service (A to L)',
      )
      .default('A'),
  }),
);
export type LicenceQuery = z.infer<typeof licenceQuerySchema>;

/** What a format requires of a play, named as the Library tab's fields. */
export const LICENCE_FIELDS = ['artist', 'title', 'isrc_or_album_and_label', 'ccli_song_number'] as const;
export type LicenceField = (typeof LICENCE_FIELDS)[number];
export const LICENCE_FIELD_LABELS: Record<LicenceField, string> = {
  artist: 'Artist',
  title: 'Title',
  isrc_or_album_and_label: 'ISRC, or album and label',
  ccli_song_number: 'CCLI song number',
};

/** Items that aired in the period without what the format requires, listed before the download. */
export const licenceCheckSchema = z.object({
  format: z.enum(LICENCE_FORMATS),
  /** Plays the file will hold (after leaving out what the format does not report). */
  plays: z.number().int().nonnegative(),
  missing: z.array(
    z.object({
      mediaId: z.string().nullable(),
      title: z.string(),
      artist: z.string(),
      plays: z.number().int().positive(),
      missing: z.array(z.enum(LICENCE_FIELDS)),
    }),
  ),
});
export type LicenceCheck = z.infer<typeof licenceCheckSchema>;

const share = z.object({ sessions: z.number().int().nonnegative(), hours: z.number().nonnegative() });

/** GET /api/admin/reports/listeners: the listener report of a period. */
export const listenerReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  /** Each point of `overTime` covers this many minutes. */
  bucketMinutes: z.number().int().positive(),
  overTime: z.array(z.object({ at: z.iso.datetime(), average: z.number(), peak: z.number().int() })),
  peak: z.number().int().nonnegative(),
  average: z.number().nonnegative(),
  listeningHours: z.number().nonnegative(),
  sessions: z.number().int().nonnegative(),
  sessionLengths: z.array(z.object({ label: z.string(), sessions: z.number().int().nonnegative() })),
  programmes: z.array(
    z.object({
      programme: z.string(),
      programmeId: z.string().nullable(),
      average: z.number().nonnegative(),
      peak: z.number().int().nonnegative(),
      hours: z.number().nonnegative(),
    }),
  ),
  bitrates: z.array(share.extend({ kbps: z.number().int() })),
  /** Null when the station has no GeoIP database. */
  countries: z.array(share.extend({ country: z.string() })).nullable(),
  players: z.array(share.extend({ player: z.enum(PLAYER_KINDS) })),
});
export type ListenerReport = z.infer<typeof listenerReportSchema>;

/** GET/PUT /api/admin/reports/retention: how long the as-run log and listener sessions are kept. */
export const DEFAULT_RETENTION_DAYS = 730;
export const retentionSchema = z
  .object({
    days: z
      .number({ error: 'days must be a number of days' })
      .int('days must be a whole number')
      .min(31, 'Keep at least 31 days (a month is reported at once)')
      .max(3660, 'Keep at most 3660 days (ten years)'),
  })
  .strict();
export type Retention = z.infer<typeof retentionSchema>;
