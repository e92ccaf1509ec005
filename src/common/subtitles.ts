import { z } from 'zod';
import { isStorableText, STORABLE_TEXT_MESSAGE } from './text.js';

/** SPEC.md section 3: names shown for subtitle language codes; any other code is shown upper-cased. */
export const SUBTITLE_LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  es: 'Spanish',
  fr: 'French',
  de: 'German',
  pt: 'Portuguese',
  zh: 'Chinese',
  ar: 'Arabic',
  hi: 'Hindi',
  ru: 'Russian',
  ja: 'Japanese',
  ko: 'Korean',
};

/**
 * The language the station speaks, named too: its own test transmission and its programmes are in
 * English, and the station has no setting for another. A new listener whose browser language has no
 * lines gets this one (docs/decisions/023).
 */
export const STATION_LANGUAGE = { code: 'en', name: 'English' } as const;

/** Names of codes outside SPEC.md's table, as the browser's own language data gives them ('Italian'). */
function displayName(code: string): string | undefined {
  try {
    if (typeof Intl.DisplayNames !== 'function') return undefined;
    return new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }).of(code);
  } catch {
    // A code the pattern allows but the language data cannot read ('en-x1').
    return undefined;
  }
}

/** SPEC.md's names first, English for the station's language, then the browser's; else upper-cased. */
export const subtitleLanguageName = (code: string) =>
  code === STATION_LANGUAGE.code
    ? STATION_LANGUAGE.name
    : (SUBTITLE_LANGUAGE_NAMES[code] ?? displayName(code) ?? code.toUpperCase());

/** SPEC.md section 9: display window (overlay and data hook), confidence warning, stored default. */
export const SUBTITLE_WINDOW_SECONDS = { overlay: 6, hook: 8 } as const;
export const CONFIDENCE_WARNING_BELOW = 90;
export const DEFAULT_SUBTITLE_CONFIDENCE = 95;
/** SPEC.md section 9: refetch every 10 s (data hook) or every 5 s while playing (overlay). */
export const SUBTITLES_REFETCH_MS = { hook: 10_000, overlay: 5_000 } as const;

/** SPEC.md section 8's only user-visible subtitle message. */
export const noSubtitlesMessage = (language: string) => `No subtitles available in ${language}`;
export const confidenceWarning = (percent: number) => `Translation confidence: ${percent}%`;

/** Local-storage keys: each subtitle setting under its own key (SPEC.md section 4). */
export const SUBTITLE_SETTING_KEYS = {
  language: 'subtitles-language',
  fontSize: 'subtitles-font-size',
  position: 'subtitles-position',
} as const;
export const SUBTITLE_FONT_SIZES = ['small', 'medium', 'large'] as const;
export type SubtitleFontSize = (typeof SUBTITLE_FONT_SIZES)[number];
export const SUBTITLE_POSITIONS = ['bottom', 'top'] as const;
export type SubtitlePosition = (typeof SUBTITLE_POSITIONS)[number];

/** Limits the station needs and SPEC.md leaves open. */
export const MAX_SUBTITLE_TEXT_LENGTH = 1000;
export const MAX_SPEAKER_LENGTH = 100;
/** A caption may be stamped at most this far behind the stream clock (a late correction), never ahead. */
export const MAX_CAPTION_AGE_SECONDS = 300;
/** Lines a listener's read returns at most, newest first. */
export const SUBTITLE_READ_LIMIT = 200;

/** BCP 47-style codes as the `.LANG.vtt` files and the captioners use them: `es`, `pt-BR`, `zh-Hant`. */
export const SUBTITLE_LANGUAGE_PATTERN = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;
const LANGUAGE_MESSAGE = "Language must be a language code such as 'es' or 'pt-BR'";
export const isSubtitleLanguage = (code: string) => SUBTITLE_LANGUAGE_PATTERN.test(code);

export const subtitleLanguageSchema = z
  .string({ error: LANGUAGE_MESSAGE })
  .regex(SUBTITLE_LANGUAGE_PATTERN, LANGUAGE_MESSAGE);

const lineText = (what: string) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .min(1, `${what} must not be empty`)
    .max(MAX_SUBTITLE_TEXT_LENGTH, `${what} must be at most ${MAX_SUBTITLE_TEXT_LENGTH} characters`)
    .refine(isStorableText, `${what} ${STORABLE_TEXT_MESSAGE}`);

/** SPEC.md section 3: a subtitle entry as the listener reads it (plus its id and language). */
export const subtitleEntrySchema = z.object({
  id: z.string(),
  /** Stream-clock second (DESIGN.md section 5). */
  timestamp: z.number().int(),
  translatedText: z.string(),
  speaker: z.string().optional(),
  confidence: z.number().int().optional(),
  /** Recognised from the station's speech by a machine, not typed by a captioner (docs/decisions/040). */
  automatic: z.literal(true).optional(),
});
export type SubtitleEntry = z.infer<typeof subtitleEntrySchema>;
export const subtitleEntryListSchema = z.array(subtitleEntrySchema);
export const subtitleLanguageListSchema = z.array(z.string());

export const subtitleLanguageParamsSchema = z.object({ language: subtitleLanguageSchema });

/**
 * POST /api/subtitles, the live captioning feed: the original text in its language, optional
 * translations by language code, optional speaker and confidence; stamped on the stream clock on
 * arrival unless a stream-clock `timestamp` is given. `replaces` names lines this caption corrects.
 */
export const captionBodySchema = z.object({
  text: lineText('Text'),
  language: subtitleLanguageSchema,
  translations: z
    .record(subtitleLanguageSchema, lineText('Translation'), {
      error: 'Translations must map language codes to text',
    })
    .optional()
    .refine((t) => t === undefined || Object.keys(t).length <= 20, 'At most 20 translations'),
  speaker: z
    .string({ error: 'Speaker must be text' })
    .trim()
    .max(MAX_SPEAKER_LENGTH, `Speaker must be at most ${MAX_SPEAKER_LENGTH} characters`)
    .refine(isStorableText, `Speaker ${STORABLE_TEXT_MESSAGE}`)
    .optional()
    .transform((s) => s || undefined),
  confidence: z
    .number({ error: 'Confidence must be a whole percent from 0 to 100' })
    .int('Confidence must be a whole percent from 0 to 100')
    .min(0, 'Confidence must be a whole percent from 0 to 100')
    .max(100, 'Confidence must be a whole percent from 0 to 100')
    .optional(),
  timestamp: z
    .number({ error: 'Timestamp must be a stream-clock second' })
    .int('Timestamp must be a whole stream-clock second')
    .nonnegative('Timestamp must be a stream-clock second')
    .optional(),
  replaces: z
    .array(z.string().regex(/^[\w-]{1,100}$/, 'is not a valid id'), {
      error: 'replaces must be a list of line ids',
    })
    .max(30, 'replaces names at most 30 lines')
    .optional(),
});
export type CaptionBody = z.input<typeof captionBodySchema>;

/** The answer to a caption: the lines stored (one per language), so a captioner can correct them. */
export const captionResultSchema = z.object({
  timestamp: z.number().int(),
  /** The caption was recognised from speech (the console lists those beside the ones staff sent). */
  automatic: z.boolean().optional(),
  /** When the station stored the line (ISO 8601): the console shows it as the station's time of day. */
  createdAt: z.string(),
  lines: z.array(z.object({ id: z.string(), language: z.string(), translatedText: z.string() })),
});
export type CaptionResult = z.infer<typeof captionResultSchema>;

/** The `/ws` push of a new line, to listeners who chose its language. */
export const subtitlePushSchema = z.object({ language: z.string(), entry: subtitleEntrySchema });
export type SubtitlePush = z.infer<typeof subtitlePushSchema>;

export const INGEST_KEY_HEADER = 'x-ingest-key';
export const SUBTITLE_TEXT = {
  credentialsRequired: 'Sign in as staff or send the X-Ingest-Key header to post captions',
  wrongKey: 'The ingest key is not valid',
  future: 'Timestamp is ahead of the stream clock',
  tooOld: `Timestamp is more than ${MAX_CAPTION_AGE_SECONDS} seconds behind the stream clock`,
} as const;
