import { readFile } from 'node:fs/promises';
import { get, type IncomingMessage } from 'node:http';
import { and, gt, lt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_LISTENER_SECONDS } from '../../../common/as-run.js';
import type { ListenerReport } from '../../../common/reports.js';
import { loadConfig } from '../../config.js';
import { asRun, listenerSessions } from '../../db/schema.js';
import { createStation, type Station } from '../../start.js';
import { freePort, startIcecast, waitFor, type IcecastServer } from '../../test/icecast-server.js';
import { addStaff } from '../../test/staff.js';

/** The documented relay configuration, filled in as its comments say. */
function relayConfig(
  template: string,
  vars: {
    broadcasterPort: number;
    relayPort: number;
    logDir: string;
    changeOwner: string;
  },
) {
  return (
    template
      .replaceAll('BROADCASTER_HOST', '127.0.0.1')
      .replaceAll('BROADCASTER_PORT', String(vars.broadcasterPort))
      .replaceAll('RELAY_PORT', String(vars.relayPort))
      .replaceAll('CHANGE_ME_ADMIN', `pw${Math.random().toString(36).slice(2, 12)}`)
      // The test's own: a throwaway log folder, logs to stderr, and the unprivileged user when run as root.
      .replace('/var/log/icecast2', vars.logDir)
      .replace(/<(access|error)log>[^<]*</g, '<$1log>-<')
      .replace('<chroot>0</chroot>', `<chroot>0</chroot>${vars.changeOwner}`)
  );
}

interface Heard {
  /** Milliseconds after the response began, and audio bytes so far. */
  samples: { at: number; audio: number }[];
  metadata: { audio: number; title: string; clock: number }[];
}

/** A raw ICY listener: audio bytes counted apart from the metadata blocks, which are read. */
function listenIcy(url: string): Promise<{ response: IncomingMessage; heard: Heard; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers: { 'Icy-MetaData': '1' } }, (response) => {
      const metaint = Number(response.headers['icy-metaint']);
      const heard: Heard = { samples: [], metadata: [] };
      const began = performance.now();
      let audio = 0;
      let untilMeta = metaint;
      let pending = Buffer.alloc(0);
      response.on('data', (chunk: Buffer) => {
        pending = Buffer.concat([pending, chunk]);
        for (;;) {
          if (untilMeta > 0) {
            const take = Math.min(untilMeta, pending.length);
            if (take === 0) break;
            audio += take;
            untilMeta -= take;
            pending = pending.subarray(take);
            continue;
          }
          if (pending.length < 1 || pending.length < 1 + pending[0]! * 16) break;
          const text = pending.subarray(1, 1 + pending[0]! * 16).toString('utf8');
          pending = pending.subarray(1 + pending[0]! * 16);
          untilMeta = metaint;
          const title = /StreamTitle='([^']*)';/.exec(text)?.[1];
          const clock = /StreamClock='([\d.]+)';/.exec(text)?.[1];
          if (title !== undefined && clock !== undefined)
            heard.metadata.push({ audio, title, clock: Number(clock) });
        }
        heard.samples.push({ at: performance.now() - began, audio });
      });
      resolve({ response, heard, stop: () => request.destroy() });
    });
    request.on('error', reject);
  });
}

describe('an Icecast relay pulling /stream', () => {
  let station: Station;
  let relay: IcecastServer;
  let relayUrl: string;
  let origin: string;

  beforeAll(async () => {
    const template = await readFile(new URL('../../../../deploy/icecast/relay.xml', import.meta.url), 'utf8');
    const relayPort = await freePort();
    relayUrl = `http://127.0.0.1:${relayPort}/stream`;
    station = await createStation(
      loadConfig({ DATA_DIR: 'memory://', SEED_DEMO: 'false', LOG_LEVEL: 'silent', RELAY_URLS: relayUrl }),
    );
    origin = await station.app.listen({ port: 0, host: '127.0.0.1' });
    const broadcasterPort = Number(new URL(origin).port);
    relay = await startIcecast({
      port: relayPort,
      configXml: ({ logDir, changeOwner }) =>
        relayConfig(template, { broadcasterPort, relayPort, logDir, changeOwner }),
    });
    await relay.waitForMount('/stream');
  });

  afterAll(async () => {
    await relay?.stop();
    await station?.stop();
  });

  it('gives its listener real-time MP3 with the station’s titles and stream clock, and the station counts them', async () => {
    const given = (await (await fetch(`${origin}/api/radio/stream-url`)).json()) as {
      streamUrl: string;
    };
    expect(given.streamUrl).toBe(relayUrl);

    const { response, heard, stop } = await listenIcy(relayUrl);
    try {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('audio/mpeg');
      // The relay's listener is the station's listener; the relay's own pull is not one.
      await waitFor(
        'the relay listener in the live figures',
        async () => {
          const stats = (await (await fetch(`${origin}/api/radio/stats`)).json()) as {
            listeners: number;
          };
          return stats.listeners === 1 ? true : undefined;
        },
        20_000,
      );
      expect(station.app.radio.broadcaster.relayCount).toBe(1);
      await waitFor(
        'six seconds of listening',
        () => (heard.samples.at(-1)!.at > 6_000 ? true : undefined),
        20_000,
      );
    } finally {
      stop();
    }

    // Real time: past the relay's opening burst, audio arrives at the stream's bitrate.
    const bytesPerSecond = (station.app.radio.bitrateKbps() * 1000) / 8;
    const from = heard.samples.find((s) => s.at >= 2_000)!;
    const to = heard.samples.at(-1)!;
    const rate = (to.audio - from.audio) / ((to.at - from.at) / 1000);
    expect(rate).toBeGreaterThan(bytesPerSecond * 0.8);
    expect(rate).toBeLessThan(bytesPerSecond * 1.25);

    // The station's own metadata, passed through: its title, and its stream clock in step with the audio.
    const np = station.app.nowPlaying.nowPlaying();
    expect(heard.metadata.length).toBeGreaterThan(3);
    expect(heard.metadata.at(-1)!.title).toBe(`${np.current_track.artist} - ${np.current_track.title}`);
    const [first, last] = [heard.metadata[0]!, heard.metadata.at(-1)!];
    const audioSeconds = (last.audio - first.audio) / bytesPerSecond;
    expect(Math.abs(last.clock - first.clock - audioSeconds)).toBeLessThan(0.5);
    // Behind the live edge only by the bursts and queues between (a few seconds), never ahead.
    expect(last.clock).toBeLessThanOrEqual(np.stream_clock);
    expect(np.stream_clock - last.clock).toBeLessThan(10);
  }, 60_000);

  it('counts a relay listener as a listener session, in the as-run log and in the listener report', async () => {
    const { app } = station;
    // The listener before has left by the relay's own count.
    await waitFor('no relay listener', () => (app.listenerSessions.size === 0 ? true : undefined), 20_000);
    const began = Date.now();
    const { stop } = await listenIcy(relayUrl);
    // The relay's status page is read every few seconds: the listener counts from the reading that saw them.
    await waitFor(
      'the relay listener seen',
      () => (app.listenerSessions.size === 1 ? true : undefined),
      20_000,
    );
    const seen = Date.now();
    await waitFor(
      'the listener staying long enough to count',
      () => (Date.now() - seen > (MIN_LISTENER_SECONDS + 1) * 1000 ? true : undefined),
      30_000,
    );
    stop();
    // The reading that sees them gone ends the session, which is stored then.
    const [session] = await waitFor(
      'the relay session stored',
      async () => {
        const rows = await app.db
          .select()
          .from(listenerSessions)
          .where(gt(listenerSessions.startedAt, new Date(began)));
        return rows.length ? rows : undefined;
      },
      20_000,
    );
    expect(session).toMatchObject({ via: 'relay', player: 'relay', country: null });
    const heard = (session!.endedAt.getTime() - session!.startedAt.getTime()) / 1000;
    expect(heard).toBeGreaterThanOrEqual(MIN_LISTENER_SECONDS);

    // The as-run rows it overlapped carry it, with any listener before (an earlier relay listener, who had left
    // before this one came: one at a time): counted here from the stored sessions, on their own.
    await app.asRunRecorder!.stop();
    const sessions = await app.db.select().from(listenerSessions);
    const rows = await app.db
      .select()
      .from(asRun)
      .where(and(lt(asRun.startedAt, session!.endedAt), gt(asRun.endedAt, session!.startedAt)));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const overlaps = sessions
        .map(
          (s) =>
            Math.min(s.endedAt.getTime(), row.endedAt!.getTime()) -
            Math.max(s.startedAt.getTime(), row.startedAt.getTime()),
        )
        .filter((ms) => ms > 0);
      const seconds = (row.endedAt!.getTime() - row.startedAt.getTime()) / 1000;
      expect(row).toMatchObject({ listenersPeak: 1, performances: overlaps.length });
      const listenerSeconds = overlaps.reduce((sum, ms) => sum + ms, 0) / 1000;
      // The average is kept to two decimals.
      expect(Math.abs(row.listenersAverage! * seconds - listenerSeconds)).toBeLessThanOrEqual(
        0.005 * seconds + 0.1,
      );
    }

    // The listener report: the relay's listener among the players, its bitrate and the peak.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const admin = await addStaff(app.db, 'relay-reporter', 'admin');
    const res = await app.inject({
      url: `/api/admin/reports/listeners?from=${day(-1)}&to=${day(1)}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    const report = res.json<ListenerReport>();
    const relayed = sessions;
    expect(report.sessions).toBe(relayed.length);
    expect(report.players).toEqual([expect.objectContaining({ player: 'relay', sessions: relayed.length })]);
    expect(report.bitrates).toEqual([
      expect.objectContaining({ kbps: app.radio.bitrateKbps(), sessions: relayed.length }),
    ]);
    expect(report.peak).toBeGreaterThanOrEqual(1);
  }, 90_000);
});
