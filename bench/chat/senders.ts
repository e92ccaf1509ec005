// The people talking: each sender is one browser on its own loopback address (Linux routes all of
// 127.0.0.0/8 to lo), so the station's per-address flood limit sees each apart; they take turns, so the
// whole room hears `rate` messages a second while each sender stays well inside the limit.
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';

export const now = () => performance.timeOrigin + performance.now();

/** One browser on /ws from a chosen local address; keeps the frames that are not the run's messages. */
export interface Speaker {
  address: string;
  say(message: string, username?: string): void;
  /** Frames seen so far that are not the run's numbered messages (errors, history, someone else's). */
  others: string[];
  errors: number;
  /** The first frame (kept or to come) that passes the test, or a rejection after `ms`. */
  next(test: (frame: string) => boolean, ms?: number): Promise<string>;
  closedEarly(): boolean;
  close(): void;
}

const SEQ_FRAME = /"type":"chat".*seq:\d+;/;

export async function openSpeaker(url: string, address: string, browser: string): Promise<Speaker> {
  const socket = new WebSocket(`${url}?browser=${browser}`, {
    localAddress: address,
    perMessageDeflate: false,
  });
  const others: string[] = [];
  const waiting = new Set<(frame: string) => void>();
  let closing = false;
  let closed = false;
  const speaker: Speaker = {
    address,
    others,
    errors: 0,
    say(message, username = `Sender ${address}`) {
      socket.send(JSON.stringify({ type: 'chat', username, message }));
    },
    next(test, ms = 10_000) {
      const seen = others.find(test);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const check = (frame: string) => {
          if (!test(frame)) return;
          clearTimeout(timer);
          waiting.delete(check);
          resolve(frame);
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`${address}: the expected frame did not come within ${ms} ms`));
        }, ms);
        waiting.add(check);
      });
    },
    closedEarly: () => closed && !closing,
    close() {
      closing = true;
      socket.terminate();
    },
  };
  socket.on('message', (data: Buffer) => {
    const frame = data.toString();
    if (frame.startsWith('{"type":"error"')) speaker.errors++;
    if (SEQ_FRAME.test(frame)) return;
    others.push(frame);
    for (const check of waiting) check(frame);
  });
  socket.on('close', () => (closed = true));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.on('error', () => {});
  return speaker;
}

/** Senders on 127.0.0.2, .3, ...: how many a rate needs so each sends at most one message every 2 s. */
export const sendersFor = (rate: number) => Math.max(10, Math.ceil(rate * 2));

export interface SenderPool {
  speakers: Speaker[];
  /** Send time (ms since the epoch) of each sequence number sent so far. */
  sentAt: Map<number, number>;
  /** Sends `from`..`to` at `rate` a second, turn by turn, on a fixed schedule (no drift); `onSend` first. */
  run(from: number, to: number, rate: number, onSend?: (seq: number) => void): Promise<void>;
  errors(): number;
  closedEarly(): number;
  close(): void;
}

/** With several URLs (instances of one station), the senders are spread over them in turn. */
export async function openSenders(url: string | string[], count: number, runId: string): Promise<SenderPool> {
  if (count > 250) throw new Error('at most 250 senders (127.0.0.2 to 127.0.0.251)');
  const urls = typeof url === 'string' ? [url] : url;
  const speakers = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      openSpeaker(urls[i % urls.length]!, `127.0.0.${i + 2}`, `bench-sender-${i + 2}-${runId}`),
    ),
  );
  const sentAt = new Map<number, number>();
  return {
    speakers,
    sentAt,
    async run(from, to, rate, onSend) {
      const interval = 1000 / rate;
      const start = performance.now();
      for (let seq = from; seq <= to; seq++) {
        const due = start + (seq - from) * interval - performance.now();
        if (due > 0) await sleep(due);
        onSend?.(seq);
        const speaker = speakers[seq % speakers.length]!;
        sentAt.set(seq, now());
        speaker.say(`Grace and peace to everyone listening tonight, seq:${seq};`);
      }
    },
    errors: () => speakers.reduce((n, s) => n + s.errors, 0),
    closedEarly: () => speakers.filter((s) => s.closedEarly()).length,
    close: () => speakers.forEach((s) => s.close()),
  };
}
