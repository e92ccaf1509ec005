// Owns: the live input point: one encoder at a time, whose it is, its frames queued with a preroll.
// Must not: decode or air the audio (live-on-air.ts), nor check credentials or read sockets (source-*.ts).
import { FrameParser, type Mp3Frame } from './mp3-frames.js';

/** Seconds an encoder may run ahead of the broadcast before we stop reading from it (TCP then slows it). */
const MAX_QUEUED_SECONDS = 8;
const RESUME_BELOW_SECONDS = 3;
/** Audio gathered before the live source takes over, so a slightly jittery encoder does not stutter. */
const PREROLL_SECONDS = 0.5;

/**
 * Whose encoder was let in: the station's own source password (the superuser's override, on air at once),
 * or a presenter's, let in from `opensAt` for their programme: its audio belongs on air from `startsAt`
 * (at once when the programme has begun) until `endsAt`.
 */
export type LiveSourceOwner =
  | { kind: 'station' }
  | {
      kind: 'presenter';
      presenterId: string;
      username: string;
      programmeTitle: string;
      opensAt: Date;
      startsAt: Date;
      endsAt: Date;
    };

export interface LiveSourceInfo {
  /** `ice-name` / `icy-name` sent by the encoder. */
  name?: string;
  description?: string;
  /** Who connected, for the log. */
  remote?: string;
  /** Whose password let the encoder in; the live input always says, absent only where nothing checked. */
  connectedBy?: LiveSourceOwner;
}

/**
 * One connected encoder: its bytes are cut into frames and queued; the engine takes them at real-time
 * pace, so the takeover happens at a frame boundary and a bursty encoder cannot rush the stream clock.
 */
export class LiveSession {
  private readonly parser = new FrameParser();
  private readonly queue: Mp3Frame[] = [];
  private queuedSeconds = 0;
  private ended = false;
  private started = false;
  private paused = false;
  /** Last song the encoder announced ('Artist - Title'). */
  song: string | null = null;
  private drainWaiters: (() => void)[] = [];
  /** Set by the transport: disconnects the encoder (station stopping). */
  abort?: () => void;

  constructor(readonly info: LiveSourceInfo) {}

  /** Drops queued audio beyond the last `seconds`: an encoder let in before its start waits with fresh audio. */
  keepLast(seconds: number): void {
    while (this.queuedSeconds > seconds && this.queue.length) this.nextFrame();
  }

  /** Feeds encoder bytes; false means stop reading until `onDrain` calls back. */
  write(chunk: Buffer): boolean {
    if (this.ended) return false;
    for (const frame of this.parser.push(chunk)) {
      this.queue.push(frame);
      this.queuedSeconds += frame.duration;
    }
    this.paused = this.queuedSeconds > MAX_QUEUED_SECONDS;
    return !this.paused;
  }

  onDrain(callback: () => void): void {
    this.drainWaiters.push(callback);
  }

  /** The encoder disconnected: what is queued still plays out. */
  end(): void {
    if (this.ended) return;
    for (const frame of this.parser.end()) {
      this.queue.push(frame);
      this.queuedSeconds += frame.duration;
    }
    this.ended = true;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** Ready to go on air (enough audio gathered), and still has audio or an encoder behind it. */
  get onAir(): boolean {
    if (!this.started && (this.queuedSeconds >= PREROLL_SECONDS || (this.ended && this.queue.length)))
      this.started = true;
    return this.started;
  }

  /** Finished: the encoder left and everything it sent was played. */
  get done(): boolean {
    return this.ended && this.queue.length === 0;
  }

  nextFrame(): Mp3Frame | null {
    const frame = this.queue.shift() ?? null;
    if (frame) this.queuedSeconds -= frame.duration;
    if (this.paused && this.queuedSeconds < RESUME_BELOW_SECONDS) {
      this.paused = false;
      for (const waiter of this.drainWaiters.splice(0)) waiter();
    }
    return frame;
  }
}

/** The live input point: at most one encoder at a time. */
export class LiveInput {
  session: LiveSession | null = null;

  constructor(
    private readonly events: {
      onBegin?(session: LiveSession): void;
      onMetadata?(session: LiveSession): void;
    } = {},
  ) {}

  /** Takes a new encoder, or null when another one is already live. */
  begin(info: LiveSourceInfo): LiveSession | null {
    if (this.session && !this.session.isEnded) return null;
    const session = new LiveSession(info);
    this.session = session;
    this.events.onBegin?.(session);
    return session;
  }

  get busy(): boolean {
    return this.session !== null && !this.session.isEnded;
  }

  /** Encoder metadata (`/admin/metadata?mode=updinfo&song=`); false when no source is live. */
  updateSong(song: string): boolean {
    if (!this.session || this.session.isEnded) return false;
    this.session.song = song;
    this.events.onMetadata?.(this.session);
    return true;
  }

  /** Forgets a session that has played out. */
  release(session: LiveSession): void {
    if (this.session === session) this.session = null;
  }
}
