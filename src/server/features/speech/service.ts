import {
  DEFAULT_SPEECH_SETTINGS,
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
    return { name: 'pocketsphinx', make: () => new PocketSphinxRecogniser({ log }) };
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
