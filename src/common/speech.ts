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
