import {
  DEFAULT_SUBTITLE_CONFIDENCE,
  isSubtitleLanguage,
  MAX_CAPTION_AGE_SECONDS,
  MAX_SUBTITLE_TEXT_LENGTH,
  SUBTITLE_READ_LIMIT,
  SUBTITLE_TEXT,
  type CaptionResult,
  type SubtitleEntry,
} from '../../../common/subtitles.js';
import { isStorableText } from '../../../common/text.js';
import type { Database } from '../../db/client.js';
import type { Cue } from '../../radio/autodj.js';
import * as repository from './repository.js';
import type { Translator } from './translator.js';

/** Lines stored this long ago or less are "recent": what listeners read and the languages offered. */
export const RECENT_MS = 15 * 60_000;
/** Lines older than this are pruned. */
export const RETENTION_MS = 60 * 60_000;
/** A machine translation is marked below SPEC.md's warning line, so listeners see how far to trust it. */
export const MACHINE_TRANSLATION_CONFIDENCE = 85;

export type { Translator };

export const toEntry = (row: repository.SubtitleRow): SubtitleEntry => ({
  id: row.id,
  timestamp: row.timestamp,
  translatedText: row.translatedText,
  ...(row.speaker ? { speaker: row.speaker } : {}),
  confidence: row.confidence,
  ...(row.automatic ? { automatic: true as const } : {}),
});

export interface StoredLine {
  language: string;
  entry: SubtitleEntry;
}
const stored = (row: repository.SubtitleRow): StoredLine => ({ language: row.language, entry: toEntry(row) });

/** A cue of an AutoDJ file's `.LANG.vtt`, as it plays: one line at its stream-clock second. */
export async function storeCue(db: Database, cue: Cue): Promise<StoredLine | null> {
  const text = cue.text.trim().slice(0, MAX_SUBTITLE_TEXT_LENGTH);
  if (!text || !isSubtitleLanguage(cue.language) || !isStorableText(text)) return null;
  const [row] = await repository.insertLines(db, [
    {
      timestamp: Math.max(0, Math.round(cue.streamClockStart)),
      originalText: text,
      language: cue.language,
      translatedText: text,
    },
  ]);
  return row ? stored(row) : null;
}

export interface Caption {
  text: string;
  language: string;
  translations?: Record<string, string>;
  speaker?: string;
  confidence?: number;
  timestamp?: number;
  replaces?: string[];
  /** Recognised from speech (features/speech), not typed. */
  automatic?: boolean;
}

/** The bus topic that carries new lines between app instances (each pushes them to its listeners). */
export const SUBTITLE_TOPIC = 'subtitle';

/** New lines to every instance's listeners of their language. */
export function publishLines(
  bus: { publish(topic: string, payload: unknown): Promise<void> },
  lines: StoredLine[],
  warn: (error: unknown) => void,
): void {
  for (const line of lines) bus.publish(SUBTITLE_TOPIC, line).catch(warn);
}

/** Where a caption goes on the stream clock: its own second if plausible, else a reason to refuse it. */
export function captionSecond(
  given: number | undefined,
  clock: number,
): { ok: true; timestamp: number } | { ok: false; reason: string } {
  if (given === undefined) return { ok: true, timestamp: Math.round(clock) };
  if (given > Math.ceil(clock)) return { ok: false, reason: SUBTITLE_TEXT.future };
  if (given < clock - MAX_CAPTION_AGE_SECONDS) return { ok: false, reason: SUBTITLE_TEXT.tooOld };
  return { ok: true, timestamp: given };
}

/**
 * Stores a live caption: the original in its language and each supplied translation, all at one
 * stream-clock second. A correction first removes the captions it replaces (every language of them).
 */
export async function storeCaption(
  db: Database,
  caption: Caption,
  timestamp: number,
): Promise<{ result: CaptionResult; lines: StoredLine[] }> {
  const old = await repository.linesById(db, caption.replaces ?? []);
  await repository.deleteCaptions(db, old);
  const texts = new Map<string, string>([[caption.language, caption.text]]);
  for (const [language, text] of Object.entries(caption.translations ?? {})) {
    if (!texts.has(language)) texts.set(language, text);
  }
  const rows = await repository.insertLines(
    db,
    [...texts].map(([language, text]) => ({
      timestamp,
      originalText: caption.text,
      language,
      translatedText: text,
      confidence: caption.confidence ?? DEFAULT_SUBTITLE_CONFIDENCE,
      speaker: caption.speaker ?? null,
      automatic: caption.automatic ?? false,
    })),
  );
  return {
    result: {
      timestamp,
      ...(caption.automatic ? { automatic: true } : {}),
      createdAt: (rows[0]?.createdAt ?? new Date()).toISOString(),
      lines: rows.map((r) => ({ id: r.id, language: r.language, translatedText: r.translatedText })),
    },
    lines: rows.map(stored),
  };
}

/** Fills the languages the captioner did not supply, one call each; a failed one is simply left out. */
export async function translateCaption(
  db: Database,
  translator: Translator,
  caption: Caption,
  timestamp: number,
  supplied: Iterable<string>,
): Promise<StoredLine[]> {
  const have = new Set(supplied);
  const wanted = translator.languages.filter((l) => !have.has(l));
  const translated = await Promise.all(
    wanted.map(async (language) => {
      const text = (await translator.translate(caption.text, caption.language, language))
        ?.trim()
        .slice(0, MAX_SUBTITLE_TEXT_LENGTH);
      return text && isStorableText(text) ? { language, text } : null;
    }),
  );
  const rows = await repository.insertLines(
    db,
    translated
      .filter((t) => t !== null)
      .map(({ language, text }) => ({
        timestamp,
        originalText: caption.text,
        language,
        translatedText: text,
        confidence: Math.min(
          caption.confidence ?? DEFAULT_SUBTITLE_CONFIDENCE,
          MACHINE_TRANSLATION_CONFIDENCE,
        ),
        speaker: caption.speaker ?? null,
        automatic: caption.automatic ?? false,
      })),
  );
  return rows.map(stored);
}

export function recentLanguages(db: Database, now = Date.now()) {
  return repository.languagesSince(db, new Date(now - RECENT_MS));
}

export async function recentLines(db: Database, language: string, now = Date.now()) {
  const rows = await repository.linesSince(db, language, new Date(now - RECENT_MS), SUBTITLE_READ_LIMIT);
  return rows.map(toEntry);
}

export function pruneSubtitles(db: Database, now = Date.now()) {
  return repository.deleteOlderThan(db, new Date(now - RETENTION_MS));
}

/**
 * A line recognised from the station's speech (features/speech), in the station's language at its own
 * stream-clock second: stored marked automatic, pushed to listeners, and translated like a typed caption.
 * It resolves once the line itself is out; its translations follow (`translations`), so a slow translator
 * never holds up the next line in the station's language, as it never holds up a captioner.
 */
export async function captionFromSpeech(
  deps: {
    db: Database;
    bus: { publish(topic: string, payload: unknown): Promise<void> };
    translator?: Translator;
    warn: (error: unknown) => void;
  },
  line: { text: string; language: string; timestamp: number },
): Promise<{ translations: Promise<void> }> {
  const text = line.text.trim().slice(0, MAX_SUBTITLE_TEXT_LENGTH);
  if (!text || !isStorableText(text)) return { translations: Promise.resolve() };
  const caption: Caption = { text, language: line.language, automatic: true };
  const { lines } = await storeCaption(deps.db, caption, line.timestamp);
  publishLines(deps.bus, lines, deps.warn);
  const translator = deps.translator;
  if (!translator) return { translations: Promise.resolve() };
  const translations = translateCaption(deps.db, translator, caption, line.timestamp, [line.language])
    .then((translated) => publishLines(deps.bus, translated, deps.warn))
    .catch(deps.warn);
  return { translations };
}
