import { z } from 'zod';
import { isStorableText, STORABLE_TEXT_MESSAGE } from './text.js';

/** Captions from speech (docs/decisions/040): the Captions tab's settings and status. */
export const SPEECH_PATH = '/api/speech';

/** Library kinds that are speech: recognised as they air, and transcribed in the background. */
export const SPEECH_KINDS = ['sermon', 'devotion', 'announcement'] as const;
export const isSpeechKind = (kind: string) => (SPEECH_KINDS as readonly string[]).includes(kind);

export const MAX_WORD_LIST = 300;
export const MAX_LISTED_WORD_LENGTH = 40;

const listedWord = z
  .string({ error: 'Each listed word must be text' })
  .trim()
  .min(1, 'A listed word must not be empty')
  .max(MAX_LISTED_WORD_LENGTH, `A listed word must be at most ${MAX_LISTED_WORD_LENGTH} characters`)
  .regex(
    /^[\p{L}][\p{L}'’-]*$/u,
    'A listed word must be one word of letters (hyphens and apostrophes allowed)',
  )
  .refine(isStorableText, `A listed word ${STORABLE_TEXT_MESSAGE}`);

export const speechSettingsSchema = z.object({
  /** Captions from speech for the station: off until staff turn them on. */
  enabled: z.boolean({ error: 'enabled must be true or false' }),
  /** Live programmes whose speech is captioned (speech items in the library always are, while enabled). */
  programmeIds: z
    .array(z.string().regex(/^[\w-]{1,100}$/, 'is not a valid programme id'), {
      error: 'programmeIds must be a list of programme ids',
    })
    .max(500, 'At most 500 programmes'),
  /** Names of speakers, books of the Bible, places: words recognition should know. */
  wordList: z
    .array(listedWord, { error: 'wordList must be a list of words' })
    .max(MAX_WORD_LIST, `At most ${MAX_WORD_LIST} listed words`),
});
export type SpeechSettings = z.infer<typeof speechSettingsSchema>;
export const DEFAULT_SPEECH_SETTINGS: SpeechSettings = { enabled: false, programmeIds: [], wordList: [] };

export const speechStatusSchema = z.object({
  /** The engine this station has (SPEECH_ENGINE), or null when none is configured. */
  engine: z.string().nullable(),
  /** off: turned off; idle: on, nothing captioned airs; the rest: the recogniser's own state. */
  state: z.enum(['off', 'idle', 'starting', 'listening', 'paused', 'stopped']),
  /** What is being captioned now ('Live: Sunday Service', 'Sermon: Grace'), or null. */
  captioning: z.string().nullable(),
  /** Seconds of audio the recogniser has not yet answered for. */
  behindSeconds: z.number().nullable(),
  reason: z.string().nullable(),
  /** What the word list did: words the engine knew, added, or could not take. */
  wordList: z
    .object({ known: z.array(z.string()), added: z.array(z.string()), unknown: z.array(z.string()) })
    .nullable(),
});
export type SpeechStatus = z.infer<typeof speechStatusSchema>;

/** The line listeners see while the recogniser is paused (it died, hung or fell behind). */
export const CAPTIONS_PAUSED_TEXT = '(Automatic captions paused)';

/** A transcript cue: its text and span in seconds from the recording's start. */
export const transcriptCueSchema = z
  .object({
    text: z
      .string({ error: 'A cue must be text' })
      .trim()
      .min(1, 'A cue must not be empty')
      .max(1000, 'A cue must be at most 1000 characters')
      .refine(isStorableText, `A cue ${STORABLE_TEXT_MESSAGE}`),
    start: z.number({ error: 'start must be seconds' }).nonnegative('start must be seconds').max(86_400),
    end: z.number({ error: 'end must be seconds' }).nonnegative('end must be seconds').max(86_400),
  })
  .refine((c) => c.end >= c.start, 'A cue must not end before it starts');

/** PUT: staff's corrected transcript, cues in order of time. */
export const transcriptEditSchema = z.object({
  cues: z
    .array(transcriptCueSchema, { error: 'cues must be a list of cues' })
    .max(20_000, 'At most 20000 cues')
    .refine(
      (cues) => cues.every((c, i) => i === 0 || c.start >= cues[i - 1]!.start),
      'Cues must be in order of time',
    ),
});

export const transcriptSchema = z.object({
  status: z.enum(['waiting', 'working', 'ready', 'failed']),
  engine: z.string().nullable(),
  language: z.string(),
  cues: z.array(z.object({ text: z.string(), start: z.number(), end: z.number() })),
  edited: z.boolean(),
  error: z.string().nullable(),
  updatedAt: z.string(),
});
export type Transcript = z.infer<typeof transcriptSchema>;

export const transcriptParamsSchema = z.object({
  mediaId: z.string().regex(/^[\w-]{1,100}$/, 'is not a valid library item id'),
});

/** Where a recording's transcript is read as WebVTT (players, podcast apps). */
export const transcriptVttPath = (mediaId: string) => `${SPEECH_PATH}/transcripts/${mediaId}/transcript.vtt`;

/** The library item a transcript's WebVTT address names (transcriptVttPath read back), or null. */
export function transcriptMediaId(url: string): string | null {
  const prefix = `${SPEECH_PATH}/transcripts/`;
  const suffix = '/transcript.vtt';
  if (!url.startsWith(prefix) || !url.endsWith(suffix)) return null;
  const id = url.slice(prefix.length, -suffix.length);
  return transcriptParamsSchema.safeParse({ mediaId: id }).success ? id : null;
}
