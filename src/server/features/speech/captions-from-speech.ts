import {
  CAPTIONS_PAUSED_TEXT,
  DEFAULT_SPEECH_SETTINGS,
  isSpeechKind,
  type SpeechSettings,
  type SpeechStatus,
} from '../../../common/speech.js';
import { CaptionLines } from './caption-lines.js';
import type { Recogniser, WordListResult } from './recogniser.js';
import { SpeechResampler } from './resample.js';

/** A live source on and off the air, as the engine tells it. */
export type LiveEvent = { type: 'live_on_air' | 'live_off_air' } | { type: string };

export interface CaptionsFromSpeechDeps {
  /** The engine's mix (the PCM tap) and its events; `clock` is the broadcast's stream clock now. */
  air: {
    onPcm(listener: (pcm: Float32Array, clock: number) => void): () => void;
    onEvent(listener: (event: LiveEvent) => void): () => void;
    clock(): number;
  };
  /** The programme whose slot this is, if any. */
  programmeNow(): Promise<{ id: string; title: string } | null>;
  /** Library items as they go on the air. */
  onAired(listener: (item: { kind: string; title: string }) => void): () => void;
  /** The configured engine (SPEECH_ENGINE) and how to start one; null when the station has none. */
  engine: { name: string; make(purpose?: 'live' | 'recording'): Recogniser } | null;
  /** A caption line into the caption path (stored, pushed, translated), marked automatic. */
  caption(line: { text: string; timestamp: number }): Promise<void>;
  log?: { warn: (obj: object, msg: string) => void };
}

/** Words held this long with nothing after them make a line (the speaker stopped mid-sentence). */
const IDLE_LINE_MS = 1200;
/** Lines older than this on the stream clock are not stored (the caption path refuses them too). */
const MAX_LINE_AGE_SECONDS = 300;

/**
 * Captions from the station's own speech (docs/decisions/040): the mix, while a captioned live programme
 * or a speech item airs, goes to the recogniser; its words come back on the stream clock and go into the
 * caption path as lines marked automatic. Nothing here can hold the air: the recogniser runs elsewhere,
 * a call that would wait drops audio instead, and a recogniser that fails is replaced while listeners
 * read that captions are paused.
 */
export class CaptionsFromSpeech {
  private settings: SpeechSettings = DEFAULT_SPEECH_SETTINGS;
  private recogniser: Recogniser | null = null;
  private readonly resampler = new SpeechResampler();
  private readonly lines: CaptionLines;
  private live = false;
  private liveProgramme: { id: string; title: string } | null = null;
  private item: { kind: string; title: string } | null = null;
  private wasActive = false;
  private lastWordsAt = 0;
  private pausedNoticeSent = false;
  private wordListResult: WordListResult | null = null;
  private readonly offs: (() => void)[] = [];
  private readonly timer: NodeJS.Timeout;
  private writes = Promise.resolve();

  constructor(private readonly deps: CaptionsFromSpeechDeps) {
    this.lines = new CaptionLines((line) => this.store(line.text, line.timestamp));
    this.offs.push(
      deps.air.onPcm((pcm, clock) => this.heard(pcm, clock)),
      deps.air.onEvent((event) => this.onEvent(event)),
      deps.onAired((item) => {
        this.item = item;
      }),
    );
    this.timer = setInterval(() => this.check(), 500);
    this.timer.unref();
  }

  /** Staff changed the settings (on this instance or another). */
  apply(next: SpeechSettings): void {
    this.settings = next;
    this.lines.spellings = new Map(next.wordList.map((w) => [w.toLowerCase(), w]));
    if (next.enabled && !this.recogniser && this.deps.engine) {
      this.recogniser = this.deps.engine.make();
      this.recogniser.onWords(({ words, final }) => {
        this.lastWordsAt = performance.now();
        this.lines.add(words, final);
      });
      this.recogniser.onWordList((result) => {
        this.wordListResult = result;
      });
    }
    if (next.enabled) this.recogniser?.setWordList(next.wordList);
    if (!next.enabled && this.recogniser) {
      const closing = this.recogniser;
      this.recogniser = null;
      this.lines.close();
      this.wasActive = false;
      void closing.close();
    }
  }

  private onEvent(event: LiveEvent): void {
    if (event.type === 'live_on_air') {
      this.live = true;
      this.liveProgramme = null;
      this.deps
        .programmeNow()
        .then((programme) => {
          if (this.live) this.liveProgramme = programme;
        })
        .catch(() => {});
    } else if (event.type === 'live_off_air') {
      this.live = false;
      this.liveProgramme = null;
    }
  }

  /** What airs now is captioned: a live programme staff chose (or live outside any), or a speech item. */
  private captioning(): string | null {
    if (!this.settings.enabled) return null;
    if (this.live) {
      const programme = this.liveProgramme;
      if (!programme) return 'Live';
      return this.settings.programmeIds.includes(programme.id) ? `Live: ${programme.title}` : null;
    }
    if (this.item && isSpeechKind(this.item.kind)) {
      return `${this.item.kind.charAt(0).toUpperCase()}${this.item.kind.slice(1)}: ${this.item.title}`;
    }
    return null;
  }

  private heard(pcm: Float32Array, clock: number): void {
    const recogniser = this.recogniser;
    if (!recogniser) return;
    if (!this.captioning()) {
      if (this.wasActive) {
        // The speech ended (music, the programme over): its last words now, not with the next speech.
        recogniser.flush();
        this.wasActive = false;
      }
      return;
    }
    this.wasActive = true;
    const speech = this.resampler.push(pcm, clock);
    if (speech) recogniser.feed(speech.clock, speech.samples);
  }

  private check(): void {
    if (this.lines.holding && performance.now() - this.lastWordsAt > IDLE_LINE_MS) this.lines.close();
    const state = this.recogniser?.status().state;
    if (state === 'paused' && this.wasActive && !this.pausedNoticeSent) {
      this.pausedNoticeSent = true;
      this.lines.close();
      this.store(CAPTIONS_PAUSED_TEXT, Math.floor(this.deps.air.clock()));
    } else if (state === 'listening') this.pausedNoticeSent = false;
  }

  private store(text: string, timestamp: number): void {
    if (timestamp < this.deps.air.clock() - MAX_LINE_AGE_SECONDS) return;
    this.writes = this.writes
      .then(() => this.deps.caption({ text, timestamp }))
      .catch((error: unknown) => this.deps.log?.warn({ err: error }, 'automatic caption not stored'));
  }

  status(): SpeechStatus {
    const engine = this.deps.engine?.name ?? null;
    const captioning = this.captioning();
    const own = this.recogniser?.status();
    const state: SpeechStatus['state'] = !this.settings.enabled
      ? 'off'
      : !own
        ? 'stopped'
        : !captioning && own.state === 'listening'
          ? 'idle'
          : own.state;
    return {
      engine,
      state,
      captioning,
      behindSeconds: own?.behindSeconds ?? null,
      reason:
        !this.deps.engine && this.settings.enabled
          ? 'No speech engine is configured (SPEECH_ENGINE)'
          : (own?.reason ?? null),
      wordList: this.wordListResult,
    };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    for (const off of this.offs) off();
    this.lines.close();
    await this.recogniser?.close();
    this.recogniser = null;
    await this.writes;
  }
}
