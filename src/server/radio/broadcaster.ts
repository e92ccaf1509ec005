// Owns: one mount: its recent frames and its listeners, each tick's audio and ICY titles written to them.
// Must not: encode, pace or choose what airs (outputs, stream clock, switch), nor store figures (listeners).
import type { ServerResponse } from 'node:http';
import { RECENT_BROADCAST_SECONDS } from '../../common/clip-limits.js';
import { FrameHistory, type TimedFrame } from './frame-history.js';
import { ICY_METAINT, icyMetadataBlock } from './icy.js';
import type { Mp3Frame } from './mp3-frames.js';
import { sendQueueKey, type QueueFamily } from './send-queues.js';

export interface BroadcasterOptions {
  /** Seconds of recent audio kept for bursts and clips (at least RECENT_BROADCAST_SECONDS). */
  historySeconds?: number;
  /** Clips are cut from this mount's history (the main one); the others keep only their burst. */
  clips?: boolean;
  /** Seconds of recent audio a new listener receives at once. */
  burstSeconds?: number;
  /** A listener whose unsent backlog passes this many bytes is dropped. */
  maxBacklogBytes?: number;
  /**
   * Seconds of audio past the burst a listener's kernel send queue may hold (seen on Linux) before it counts
   * as not reading; two checks in a row over it and it is dropped, as Icecast drops a client past its queue.
   */
  kernelSlackSeconds?: number;
  metaint?: number;
  /**
   * Audio is written to listeners in pieces of at least this many bytes (or a second's worth): a low bitrate
   * then costs fewer writes per listener, not the same number of smaller ones. Default: every flush.
   */
  minWriteBytes?: number;
}

/** Audio produced since the last flush, written to every listener as one piece. */
interface Batch {
  data: Buffer;
  /** Byte offset of each frame in `data`, and its stream-clock start. */
  offsets: number[];
  starts: number[];
  /** Stream clock at the end of the batch. */
  end: number;
}

interface Listener {
  res: ServerResponse;
  icy: boolean;
  /** ICY: audio bytes still to send before the next metadata block. */
  untilMeta: number;
  /** A relay pulling the stream for its own listeners: not a listener itself (they are counted from its status). */
  relay: boolean;
  token: number;
  /** Its key in the kernel's send queues, and how many checks in a row found it over the bound. */
  queueKey: string;
  stalledChecks: number;
  /** Where its send queue is found: the connection's local port and address family. */
  localPort: number;
  family: QueueFamily;
}

/** Listener comings and goings, for the figures: `onJoin` returns a token handed back to `onLeave`. */
export interface ListenerEvents {
  onJoin?(): number;
  onLeave?(token: number): void;
}

/**
 * The one live mount: keeps the stream clock, the recent frames and the listeners, and writes each
 * tick's audio to every listener in one write (plus ICY metadata where asked), dropping those who fall
 * too far behind.
 */
export class Broadcaster {
  /** Seconds of audio broadcast since the station started; only ever grows. */
  clock = 0;
  /** Bitrate of the latest frame (icy-br). */
  bitrateKbps = 128;
  readonly history: FrameHistory;
  readonly metaint: number;
  private readonly burstSeconds: number;
  private readonly maxBacklogBytes: number;
  private readonly kernelSlackSeconds: number;
  private readonly minWriteBytes: number;
  /** Listeners dropped for not reading (their kernel queue past the bound), since start. */
  stalledDropped = 0;
  private readonly listeners = new Set<Listener>();
  private pending: TimedFrame[] = [];
  private titles: { from: number; title: string }[] = [{ from: 0, title: '' }];

  constructor(
    options: BroadcasterOptions = {},
    private readonly events: ListenerEvents = {},
  ) {
    this.burstSeconds = options.burstSeconds ?? 4;
    this.history = new FrameHistory(
      options.clips === false
        ? this.burstSeconds + 1
        : Math.max(RECENT_BROADCAST_SECONDS, options.historySeconds ?? 360),
    );
    this.maxBacklogBytes = options.maxBacklogBytes ?? 256 * 1024;
    this.kernelSlackSeconds = options.kernelSlackSeconds ?? 5;
    this.metaint = options.metaint ?? ICY_METAINT;
    this.minWriteBytes = options.minWriteBytes ?? 0;
  }

  /** People listening here: every connection but the relays pulling the stream for theirs. */
  get listenerCount(): number {
    return this.listeners.size - this.relayCount;
  }

  /** Relays pulling the stream now. */
  relayCount = 0;

  /** The StreamTitle from stream-clock second `from` on (default: the next frame pushed). */
  setTitle(title: string, from = this.clock): void {
    const at = Math.max(from, this.clock);
    // Kept in order of time: a title set ahead (the pipeline's lead) may be followed by one for now.
    this.titles = this.titles.filter((t) => t.from < at);
    this.titles.push({ from: at, title });
    if (this.titles.length > 8) this.titles.shift();
  }

  /**
   * Whether a new title (a new item, a programme's start, a source taking the air) begins in the audio pushed
   * from stream-clock second `from`: its first audio then leaves at once, not held for a fuller piece, so a
   * programme set for a time starts then for every listener.
   */
  private titleStartsIn(from: number): boolean {
    return this.titles.some((t) => t.from > 0 && t.from >= from && t.from < this.clock);
  }

  get title(): string {
    return this.titles[this.titles.length - 1]!.title;
  }

  /** Appends one frame to the broadcast; listeners get it on the next flush. */
  push(frame: Mp3Frame): TimedFrame {
    const timed = { data: frame.data, start: this.clock, duration: frame.duration };
    this.clock += frame.duration;
    this.bitrateKbps = frame.header.bitrateKbps;
    this.history.push(timed);
    this.pending.push(timed);
    return timed;
  }

  /** Sends what was pushed since the last flush to every listener. */
  flush(): void {
    if (this.pending.length === 0) return;
    if (this.minWriteBytes > 0 && !this.titleStartsIn(this.pending[0]!.start)) {
      const held = this.pending.reduce((sum, f) => sum + f.data.length, 0);
      const seconds = this.clock - this.pending[0]!.start;
      if (held < this.minWriteBytes && seconds < 1) return;
    }
    const batch = toBatch(this.pending);
    this.pending = [];
    const meta = new Map<number, Buffer>();
    for (const listener of this.listeners) this.send(listener, batch, meta);
  }

  /** Starts a listener: a frame-aligned burst of recent audio now, then every flush. */
  addListener(res: ServerResponse, options: { icy: boolean; relay?: boolean }): void {
    const relay = options.relay ?? false;
    if (relay) this.relayCount++;
    const listener: Listener = {
      res,
      icy: options.icy,
      untilMeta: this.metaint,
      relay,
      token: relay ? 0 : (this.events.onJoin?.() ?? 0),
      queueKey: sendQueueKey(res.socket?.remoteAddress, res.socket?.remotePort),
      stalledChecks: 0,
      localPort: res.socket?.localPort ?? 0,
      family: res.socket?.remoteFamily === 'IPv6' ? 'IPv6' : 'IPv4',
    };
    this.listeners.add(listener);
    const remove = () => {
      if (this.listeners.delete(listener)) this.left(listener);
    };
    res.on('close', remove);
    res.on('error', remove);
    // Frames pushed but not yet flushed reach this listener with the next flush.
    const flushed = this.pending[0]?.start ?? this.clock;
    const frames = this.history.between(this.clock - this.burstSeconds, flushed);
    if (frames.length) this.send(listener, toBatch(frames), new Map());
  }

  /** Where its listeners' kernel send queues are read: their connections' local port and address families. */
  queueSources(): { port: number; families: Set<QueueFamily> } | null {
    let port = 0;
    const families = new Set<QueueFamily>();
    for (const listener of this.listeners) {
      port ||= listener.localPort;
      families.add(listener.family);
    }
    return port ? { port, families } : null;
  }

  /**
   * Drops the listeners that have not been reading: their kernel send queue (Linux, `queues` as
   * `readSendQueues` gives them) held more than the burst plus the slack on this check and the one before.
   * Called every few seconds by the engine, for every mount with one read of the queues.
   */
  dropStalledListeners(queues: ReadonlyMap<string, number>): number {
    const bound = ((this.bitrateKbps * 1000) / 8) * (this.burstSeconds + this.kernelSlackSeconds);
    let dropped = 0;
    for (const listener of this.listeners) {
      listener.stalledChecks = (queues.get(listener.queueKey) ?? 0) > bound ? listener.stalledChecks + 1 : 0;
      if (listener.stalledChecks < 2) continue;
      // A reset, not a close: a closed socket keeps its unsent queue in the kernel until it times out.
      if (listener.res.socket) listener.res.socket.resetAndDestroy();
      else listener.res.destroy();
      dropped++;
    }
    this.stalledDropped += dropped;
    return dropped;
  }

  /** Ends every listener's response (station stopping). */
  closeAll(): void {
    for (const listener of [...this.listeners]) {
      this.listeners.delete(listener);
      this.left(listener);
      listener.res.end();
    }
  }

  private left(listener: Listener): void {
    if (listener.relay) this.relayCount--;
    else this.events.onLeave?.(listener.token);
  }

  private send(listener: Listener, batch: Batch, meta: Map<number, Buffer>): void {
    const { res } = listener;
    if (res.destroyed) return;
    if (res.writableLength > this.maxBacklogBytes) {
      // Too far behind: it would only grow our memory. Its player reconnects and gets a fresh burst.
      res.destroy();
      return;
    }
    if (!listener.icy) {
      res.write(batch.data);
      return;
    }
    res.cork();
    let pos = 0;
    while (pos < batch.data.length) {
      const take = Math.min(listener.untilMeta, batch.data.length - pos);
      res.write(take === batch.data.length ? batch.data : batch.data.subarray(pos, pos + take));
      pos += take;
      listener.untilMeta -= take;
      if (listener.untilMeta === 0) {
        res.write(this.metadataAt(batch, pos, meta));
        listener.untilMeta = this.metaint;
      }
    }
    res.uncork();
  }

  /** The metadata block before the audio byte at `pos` in the batch: title and stream clock of that byte's frame. */
  private metadataAt(batch: Batch, pos: number, cache: Map<number, Buffer>): Buffer {
    const index = pos >= batch.data.length ? -1 : frameIndexAt(batch, pos);
    let block = cache.get(index);
    if (!block) {
      const clock = index === -1 ? batch.end : batch.starts[index]!;
      block = icyMetadataBlock(this.titleAt(clock), clock);
      cache.set(index, block);
    }
    return block;
  }

  private titleAt(clock: number): string {
    for (let i = this.titles.length - 1; i >= 0; i--)
      if (this.titles[i]!.from <= clock + 1e-9) return this.titles[i]!.title;
    return this.titles[0]!.title;
  }
}

function toBatch(frames: TimedFrame[]): Batch {
  const offsets: number[] = [];
  const starts: number[] = [];
  let size = 0;
  for (const f of frames) {
    offsets.push(size);
    starts.push(f.start);
    size += f.data.length;
  }
  const last = frames[frames.length - 1]!;
  const data =
    frames.length === 1
      ? last.data
      : Buffer.concat(
          frames.map((f) => f.data),
          size,
        );
  return { data, offsets, starts, end: last.start + last.duration };
}

function frameIndexAt(batch: Batch, pos: number): number {
  let lo = 0;
  let hi = batch.offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (batch.offsets[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
