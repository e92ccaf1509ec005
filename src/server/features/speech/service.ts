import {
  DEFAULT_SPEECH_SETTINGS,
  SPEECH_KINDS,
  transcriptVttPath,
  type Transcript,
  speechSettingsSchema,
  type SpeechSettings,
  type SpeechStatus,
} from '../../../common/speech.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { EventBus } from '../../plugins/event-bus.js';
import { CaptionsFromSpeech, type CaptionsFromSpeechDeps } from './captions-from-speech.js';
import { TranscriptionServerRecogniser } from './openai-transcriptions.js';
import { PocketSphinxRecogniser } from './pocketsphinx.js';
import type { Recogniser } from './recogniser.js';
import { readSpeechSettings, writeSpeechSettings } from './repository.js';
import * as transcripts from './transcript-repository.js';
import { transcribeFile } from './transcribe.js';
import { vttOf, type TranscriptCue } from './vtt-file.js';

export { CaptionsFromSpeech };
export type { Recogniser };

/** Staff changed the settings on some instance: the broadcaster applies them. */
const CHANGED_TOPIC = 'speech_settings_changed';

/** The station's recogniser, as SPEECH_ENGINE and its server settings say; null for none. */
export function speechEngine(
  config: Config['speech'],
  log?: { warn: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void },
): CaptionsFromSpeechDeps['engine'] {
  if (config.engine === 'pocketsphinx') {
    return {
      name: 'pocketsphinx',
      make: (purpose = 'live') =>
        purpose === 'live'
          ? new PocketSphinxRecogniser({ log })
          : // A recording waits for it: whatever the station leaves of the machine, and no hurry.
            new PocketSphinxRecogniser({ log, nice: 19, maxBacklogSeconds: 60, hangMs: 60_000 }),
    };
  }
  if (config.engine === 'openai') {
    return {
      name: 'openai-transcriptions',
      make: () =>
        new TranscriptionServerRecogniser({
          url: config.url,
          apiKey: config.apiKey,
          model: config.model,
          language: 'en',
        }),
    };
  }
  return null;
}

/** The saved settings, or the defaults (off) when none are saved or they no longer read. */
export async function speechSettings(db: Database): Promise<SpeechSettings> {
  const parsed = speechSettingsSchema.safeParse(await readSpeechSettings(db));
  return parsed.success ? parsed.data : DEFAULT_SPEECH_SETTINGS;
}

export async function saveSpeechSettings(db: Database, bus: EventBus, next: SpeechSettings): Promise<void> {
  await writeSpeechSettings(db, next);
  await bus.publish(CHANGED_TOPIC, next);
}

/** Where the status comes from: the broadcaster's captions, or none on a web instance. */
export interface SpeechStatusSource {
  status(): SpeechStatus;
}

/**
 * Starts captions from speech on the broadcaster: the saved settings applied now and whenever staff
 * change them on any instance.
 */
export async function startCaptionsFromSpeech(
  db: Database,
  bus: EventBus,
  deps: CaptionsFromSpeechDeps,
): Promise<{ captions: CaptionsFromSpeech; stop(): Promise<void> }> {
  const captions = new CaptionsFromSpeech(deps);
  captions.apply(await speechSettings(db));
  const unsubscribe = bus.subscribe(CHANGED_TOPIC, (payload) => {
    const parsed = speechSettingsSchema.safeParse(payload);
    if (parsed.success) captions.apply(parsed.data);
  });
  return {
    captions,
    stop: async () => {
      unsubscribe();
      await captions.close();
    },
  };
}

/** A web instance's answer: the recogniser runs on the broadcaster. */
export const elsewhereStatus = (engine: string | null): SpeechStatus => ({
  engine,
  state: 'stopped',
  captioning: null,
  behindSeconds: null,
  reason: 'Captions from speech run on the broadcaster',
  wordList: null,
});

// --- Transcripts of recordings ---------------------------------------------------------------------

/** How often the library is looked at for speech with no transcript yet. */
const TRANSCRIBE_EVERY_MS = 15_000;

/**
 * Recorded programmes and uploaded sermons (the library's speech kinds) get a transcript in the
 * background, one at a time, while captions from speech are on: the file heard by a recogniser of its
 * own at the lowest priority, never the one captioning the air.
 */
export function startTranscripts(deps: {
  db: Database;
  engine: CaptionsFromSpeechDeps['engine'];
  /** The file a library path names. */
  fileOf: (stored: string) => string;
  log?: { warn: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };
  everyMs?: number;
}): { stop(): Promise<void>; idle(): Promise<void> } {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let current: Recogniser | null = null;
  const once = async () => {
    const engine = deps.engine;
    if (stopped || !engine || !(await speechSettings(deps.db)).enabled) return;
    await transcripts.forgetUnfinished(deps.db);
    for (;;) {
      const next = await transcripts.nextUntranscribed(deps.db, SPEECH_KINDS);
      if (!next || stopped) return;
      await transcripts.startTranscript(deps.db, next.id, engine.name);
      const recogniser = engine.make('recording');
      current = recogniser;
      try {
        const cues = await transcribeFile(deps.fileOf(next.path), recogniser);
        await transcripts.finishTranscript(deps.db, next.id, cues);
        deps.log?.info({ mediaItemId: next.id, cues: cues.length }, 'transcript ready');
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await transcripts.failTranscript(deps.db, next.id, message);
        deps.log?.warn({ mediaItemId: next.id, err: error }, 'transcript failed');
      } finally {
        current = null;
        await recogniser.close();
      }
    }
  };
  const tick = () => {
    running = running.then(once).catch((error: unknown) => deps.log?.warn({ err: error }, 'transcripts'));
  };
  const timer = setInterval(tick, deps.everyMs ?? TRANSCRIBE_EVERY_MS);
  timer.unref();
  tick();
  return {
    idle: () => running,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await current?.close();
      await running;
    },
  };
}

export async function transcriptFor(db: Database, mediaItemId: string): Promise<Transcript | null> {
  const row = await transcripts.transcriptOf(db, mediaItemId);
  if (!row) return null;
  return {
    status: row.status,
    engine: row.engine,
    language: row.language,
    cues: row.words,
    edited: row.edited,
    error: row.error,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Staff's corrected cues; false when there is no finished transcript to correct. */
export function editTranscript(db: Database, mediaItemId: string, cues: TranscriptCue[]) {
  return transcripts.editTranscript(db, mediaItemId, cues);
}

/** The transcript's WebVTT, when it is ready. */
export async function transcriptVtt(db: Database, mediaItemId: string): Promise<string | null> {
  const row = await transcripts.transcriptOf(db, mediaItemId);
  return row?.status === 'ready' ? vttOf(row.words) : null;
}

/**
 * Where listeners and podcast apps read the transcripts of these audio addresses, for those with one
 * ready: an address is a library item (`/media/ID`) or sermon audio the Content tab uploaded
 * (`/uploads/NAME`, a library item too). Other addresses have none.
 */
export async function transcriptUrlsForAudio(
  db: Database,
  audioUrls: readonly string[],
): Promise<Map<string, string>> {
  const uploads = new Map<string, string>();
  /** [library item, the address naming it] */
  const named: [string, string][] = [];
  for (const url of audioUrls) {
    const upload = /^\/uploads\/([\w.-]+)$/.exec(url)?.[1];
    const media = /^\/media\/([\w-]+)$/.exec(url)?.[1];
    if (upload) uploads.set(`uploads/${upload}`, url);
    else if (media) named.push([media, url]);
  }
  for (const row of await transcripts.mediaIdsByPaths(db, [...uploads.keys()])) {
    named.push([row.id, uploads.get(row.path)!]);
  }
  const ready = await transcripts.readyTranscriptIds(db, [...new Set(named.map(([id]) => id))]);
  return new Map(named.filter(([id]) => ready.has(id)).map(([id, url]) => [url, transcriptVttPath(id)]));
}

/** One episode's transcript address, when it has one ready. */
export async function transcriptUrlForAudio(db: Database, audioUrl: string): Promise<string | undefined> {
  return (await transcriptUrlsForAudio(db, [audioUrl])).get(audioUrl);
}

/** Done again from the file (staff's edits are dropped). */
export async function retranscribe(db: Database, mediaItemId: string): Promise<boolean> {
  if (!(await transcripts.mediaPath(db, mediaItemId))) return false;
  await transcripts.deleteTranscript(db, mediaItemId);
  return true;
}
