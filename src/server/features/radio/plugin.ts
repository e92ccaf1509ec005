import { STREAM_PATH } from '../../../common/radio.js';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { announceBroadcaster, BroadcasterFeed } from '../../radio/broadcaster-link.js';
import { RadioEngine } from '../../radio/engine.js';
import { ExternalStationSource } from '../../radio/external-source.js';
import type { NowPlayingSource } from '../../radio/now-playing-source.js';
import type { Programming } from '../../radio/programming.js';
import { RelayDirectory } from '../../radio/relays.js';
import { ListenerSessions, openCountryTally } from '../listeners/service.js';
import { streamSource } from '../settings/service.js';
import { radioRoutes } from './routes.js';
import { liveFiguresReader, radioStorage, stationCheckedFetch, type LiveFigures } from './service.js';
import { presenterBySourcePassword, type PresenterSchedule } from '../presenters/service.js';
import { sourceAuthoriser } from './source-auth.js';
import { SourcePasswordGuard } from './source-guard.js';
import { sourceRoutes, webInstanceSourceRoutes } from './source-routes.js';
import { streamRoutes } from './stream-routes.js';
import { streamSourceRoutes } from './stream-source-routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The broadcaster (AutoDJ, live input, a station elsewhere relayed, listeners); never started on a web
     * instance.
     */
    radio: RadioEngine;
    /** Listeners now, today's peak and hours listened today. */
    radioFigures: () => Promise<LiveFigures>;
    /** Listeners now, on every app instance and relay (our own: a relayed station elsewhere's are its own). */
    listenersNow: () => number;
    /** The station elsewhere relayed on air (`icecast:URL` | `url:URL`), or undefined for the AutoDJ. */
    streamSource: () => string | undefined;
    /** Listener sessions as this broadcaster sees them (the as-run log and the listener reports read them). */
    listenerSessions: ListenerSessions;
    /** On a web instance, the broadcaster as its heartbeats tell it (/readyz asks how recent they are). */
    broadcasterFeed?: BroadcasterFeed;
  }
}

/** Staff changed the stream source on some instance: the broadcaster reads it again and relays it. */
const STREAM_SOURCE_TOPIC = 'stream_source';
/** The relays' listeners are read this often on the broadcaster. */
const RELAY_POLL_MS = 5_000;

/**
 * The radio: engine, the /stream mount and live input, and /api/radio. Built with the app, started by
 * createStation (tests start it when they need audio); stopping the app ends every listener's response.
 * A station elsewhere (the Station tab's stream source, else STREAM_SOURCE) is relayed by the engine: its
 * stream is pulled and decoded here and goes out on our own mounts, so listeners are never sent to it.
 * By STATION_ROLE (docs/decisions/016-roles-and-relays.md): `all` and `broadcaster` run the engine; a `web`
 * instance never starts it, takes now playing from the broadcaster's heartbeats and sends players to a relay
 * or the broadcaster.
 */
export default fp(
  async function radio(
    app: FastifyInstance,
    opts: {
      programming: Programming;
      /** Which presenter may send live audio when: the schedule's programmes "live from a presenter". */
      presenterSchedule: PresenterSchedule;
    },
  ) {
    const engine = new RadioEngine({
      config: app.config,
      storage: radioStorage(app.db, app.config),
      log: app.log,
      station: () => app.station(),
    });
    // What plays next, and from when: the station's schedule over its media library.
    engine.setProgramming(opts.programming);
    const log = {
      warn: (message: string) => app.log.warn(message),
      info: (message: string) => app.log.info(message),
    };
    // The Station tab's source is asked for its stream and its status the way its address was checked when it
    // was saved (a name may resolve elsewhere since, and the setting may have changed): resolved once per
    // connection, refused if the policy refuses it now, connected to as resolved. STREAM_SOURCE is the
    // operator's. Either way the address is only ever fetched here, never handed to ffmpeg.
    const checked = stationCheckedFetch(app);
    const stationFor = (value: string | undefined) =>
      value
        ? new ExternalStationSource({
            streamSource: value,
            stationName: app.station().name,
            log,
            ...(value === app.config.streamSource
              ? { statusUrl: app.config.streamStatusUrl }
              : { fetch: checked }),
          })
        : null;
    const web = app.config.role === 'web';
    const relays = new RelayDirectory(app.config.relays.urls, {
      pick: app.config.relays.pick,
      statusUrls: app.config.relays.statusUrls,
      log,
    });
    // The Station tab's choice, else STREAM_SOURCE; changed while the station runs, without a restart.
    let chosen = await streamSource(app.db, app.config);
    const feed = web
      ? new BroadcasterFeed({
          bus: app.bus,
          broadcasterUrl: app.config.broadcasterUrl!,
          stationName: () => app.station().name,
        })
      : undefined;
    if (!web) await engine.relay(stationFor(chosen));
    const onAir: NowPlayingSource = feed ?? engine;
    const source = () => onAir;
    app.decorate('radio', engine);
    app.decorate('nowPlaying', onAir);
    app.decorate('streamSource', () => (feed ? (feed.external ?? undefined) : chosen));
    if (feed) app.decorate('broadcasterFeed', feed);
    // Where a listener is sent: a relay when there are any (the relays pull our /stream, whatever it carries),
    // else our own /stream (on a web instance, the broadcaster's).
    const listenerStreamUrl = (origin: string) => relays.pick() || onAir.streamUrl(origin);
    // Each bitrate on air has its own mount beside the main one (/stream/64), on the relays too.
    const listenerStreams = (origin: string) => {
      const main = listenerStreamUrl(origin);
      if (!main.endsWith(STREAM_PATH)) return [{ kbps: null, url: main }];
      const bitrates = feed ? feed.bitrates() : engine.bitrates();
      return bitrates.map((kbps) => ({ kbps, url: `${main}/${kbps}` }));
    };
    // Each instance's own /stream listeners (with its relays'), summed over every instance through the shared
    // counts; a web instance has none of its own and hears the broadcaster's figure in its heartbeats.
    const ownListeners = app.sharedCounts.count('listening', () => (web ? 0 : engine.nowPlaying().listeners));
    const listenersNow = () => (web ? onAir.nowPlaying().listeners : ownListeners());
    app.decorate('listenersNow', listenersNow);
    const countries = await openCountryTally({
      file: app.config.geoipDb,
      dataDir: app.config.dataDir,
      timeZone: () => app.station().timeZone,
      log,
    });
    const peakToday = () => (feed ? feed.peakToday() : engine.meter.peakToday);
    const liveFigures = liveFiguresReader(
      app.db,
      peakToday,
      listenersNow,
      () => app.station().timeZone,
      countries,
    );
    app.decorate('radioFigures', liveFigures);
    const sessions = new ListenerSessions(app.db, {
      log: app.log,
      relayBitrate: () => engine.bitrates()[0] ?? 128,
    });
    app.decorate('listenerSessions', sessions);
    app.addHook('preClose', async () => {
      await onAir.stop();
      if (feed) await engine.stop();
      // Listeners still connected end with the station: their sessions are stored before the database closes.
      await sessions.closeAll();
    });

    if (!web) {
      // Relays' listeners count as ours: in now playing, the live figures and the stored minutes.
      if (relays.urls.length) {
        const poll = setInterval(() => {
          void relays.listeners().then((count) => {
            engine.setRelayListeners(count);
            sessions.setRelayed(count);
          });
        }, RELAY_POLL_MS);
        poll.unref();
        app.addHook('onClose', async () => clearInterval(poll));
      }
      if (app.config.role === 'broadcaster') {
        let quiet = () => {};
        app.addHook('onReady', async () => {
          quiet = announceBroadcaster(
            app.bus,
            onAir,
            () => ({
              peakToday: engine.meter.peakToday,
              streamSource: chosen ?? null,
              bitrates: [...engine.bitrates()],
            }),
            log,
          );
        });
        app.addHook('preClose', async () => quiet());
        const unsubscribe = app.bus.subscribe(STREAM_SOURCE_TOPIC, () => {
          void streamSource(app.db, app.config)
            .then(async (value) => {
              if (value === chosen) return;
              chosen = value;
              await engine.relay(stationFor(value));
            })
            .catch((error: unknown) => app.log.warn({ err: error }, 'stream source not switched'));
        });
        app.addHook('onClose', async () => unsubscribe());
      }
    }

    await app.register(streamRoutes, {
      engine,
      source,
      elsewhere: listenerStreamUrl,
      onListener: ({ address, kbps, userAgent }) =>
        sessions.join({ bitrate: kbps, userAgent, country: countries.add(address) }),
    });
    if (web) await app.register(webInstanceSourceRoutes);
    else
      await app.register(sourceRoutes, {
        engine,
        guard: await SourcePasswordGuard.open(app.redis),
        authorise: sourceAuthoriser({
          stationPassword: () => engine.sourcePassword(),
          presenter: (username, password) => presenterBySourcePassword(app.db, username, password),
          schedule: opts.presenterSchedule,
          timeZone: () => app.station().timeZone,
          log: {
            warn: (details, message) => app.log.warn(details, message),
            info: (details, message) => app.log.info(details, message),
          },
        }),
      });
    await app.register(radioRoutes, {
      prefix: '/api',
      source,
      streamUrl: listenerStreamUrl,
      streams: listenerStreams,
      listenersNow,
      liveFigures,
    });
    await app.register(streamSourceRoutes, {
      prefix: '/api',
      current: () => app.streamSource(),
      async apply(value) {
        // Saved already: on a web instance the broadcaster is told to read it and put it on air.
        if (web) return app.bus.publish(STREAM_SOURCE_TOPIC, {});
        chosen = value;
        await engine.relay(stationFor(value));
      },
    });
  },
  { name: 'radio' },
);
