import { STREAM_PATH } from '../../../common/radio.js';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AddressInfo } from 'node:net';
import { announceBroadcaster, BroadcasterFeed } from '../../radio/broadcaster-link.js';
import { RadioEngine } from '../../radio/engine.js';
import { ExternalStationSource } from '../../radio/external-source.js';
import type { LibraryProvider } from '../../radio/library.js';
import { RelayDirectory } from '../../radio/relays.js';
import { SwitchableSource } from '../../radio/switchable-source.js';
import { openCountryTally } from '../listeners/service.js';
import { allowPrivateNetworkSource, streamSource } from '../settings/service.js';
import { radioRoutes } from './routes.js';
import { liveFiguresReader, radioStorage, type LiveFigures } from './service.js';
import { SourcePasswordGuard } from './source-guard.js';
import { sourceRoutes, webInstanceSourceRoutes } from './source-routes.js';
import { streamRoutes } from './stream-routes.js';
import { checkedFetch } from './stream-source-check.js';
import { streamSourceRoutes } from './stream-source-routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The built-in broadcaster (AutoDJ, live input, listeners); idle when an external station is configured. */
    radio: RadioEngine;
    /** Listeners now, today's peak and hours listened today. */
    radioFigures: () => Promise<LiveFigures>;
    /** Listeners now, on every app instance (the station elsewhere's own count when it is on air). */
    listenersNow: () => number;
    /** The station elsewhere that is on air (`icecast:URL` | `url:URL`), or undefined for the built-in one. */
    streamSource: () => string | undefined;
    /** On a web instance, the broadcaster as its heartbeats tell it (/readyz asks how recent they are). */
    broadcasterFeed?: BroadcasterFeed;
  }
}

/** Staff changed the stream source on some instance: the broadcaster reads it again and puts it on air. */
const STREAM_SOURCE_TOPIC = 'stream_source';
/** The relays' listeners are read this often on the broadcaster. */
const RELAY_POLL_MS = 5_000;

/**
 * The radio: engine, the /stream mount and live input, and /api/radio. Built with the app, started by
 * createStation (tests start it when they need audio); stopping the app ends every listener's response.
 * By STATION_ROLE (docs/decisions/016-roles-and-relays.md): `all` and `broadcaster` run the engine; a `web`
 * instance never starts it, takes now playing from the broadcaster's heartbeats and sends players to a relay
 * or the broadcaster.
 */
export default fp(
  async function radio(app: FastifyInstance, opts: { library: LibraryProvider }) {
    const engine = new RadioEngine({
      config: app.config,
      storage: radioStorage(app.db, app.config),
      log: app.log,
      station: () => app.station(),
    });
    // What the AutoDJ plays: the media library's measured items.
    engine.addSource(opts.library);
    const log = {
      warn: (message: string) => app.log.warn(message),
      info: (message: string) => app.log.info(message),
    };
    // The Station tab's source is asked for its status the way its address was checked when it was saved
    // (a name may resolve elsewhere since, and the setting may have changed); STREAM_SOURCE is the operator's.
    const checkedStatus = checkedFetch(async () => {
      const listening = app.server.address() as AddressInfo | null;
      return {
        allowPrivateNetwork: await allowPrivateNetworkSource(app.db),
        ownOrigins: app.config.publicUrl ? [app.config.publicUrl] : [],
        ownPorts: [app.config.port, ...(listening?.port ? [listening.port] : [])],
      };
    });
    const sourceFor = (value: string | undefined) =>
      value
        ? new ExternalStationSource({
            streamSource: value,
            stationName: app.station().name,
            log,
            ...(value === app.config.streamSource
              ? { statusUrl: app.config.streamStatusUrl }
              : { fetch: checkedStatus }),
          })
        : engine;
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
    const onAir = new SwitchableSource(feed ?? sourceFor(chosen));
    const source = () => onAir.active;
    app.decorate('radio', engine);
    app.decorate('nowPlaying', onAir);
    app.decorate('streamSource', () => (feed ? (feed.external ?? undefined) : chosen));
    if (feed) app.decorate('broadcasterFeed', feed);
    // Where a listener is sent: a relay when there are any and our own broadcast is on air (the relays pull
    // it), else the address of what is on air.
    const ownBroadcastOnAir = () => (feed ? !feed.external : source() === engine);
    const listenerStreamUrl = (origin: string) =>
      (ownBroadcastOnAir() && relays.pick()) || source().streamUrl(origin);
    // Each bitrate on air has its own mount beside the main one (/stream/64), on the relays too.
    const listenerStreams = (origin: string) => {
      const main = listenerStreamUrl(origin);
      if (!ownBroadcastOnAir() || !main.endsWith(STREAM_PATH)) return [{ kbps: null, url: main }];
      const bitrates = feed ? feed.bitrates() : engine.bitrates();
      return bitrates.map((kbps) => ({ kbps, url: `${main}/${kbps}` }));
    };
    // Each instance's own /stream listeners (with its relays'), summed over every instance through the shared
    // counts; a web instance has none of its own and hears the broadcaster's figure in its heartbeats.
    const ownListeners = app.sharedCounts.count('listening', () =>
      web || chosen ? 0 : engine.nowPlaying().listeners,
    );
    const listenersNow = () => (web || chosen ? source().nowPlaying().listeners : ownListeners());
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
    app.addHook('preClose', async () => {
      await onAir.stop();
      if (onAir.active !== engine) await engine.stop();
    });

    if (!web) {
      // Relays' listeners count as ours: in now playing, the live figures and the stored minutes.
      if (relays.urls.length) {
        const poll = setInterval(() => {
          void relays.listeners().then((count) => engine.setRelayListeners(count));
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
              await onAir.switchTo(sourceFor(value));
            })
            .catch((error: unknown) => app.log.warn({ err: error }, 'stream source not switched'));
        });
        app.addHook('onClose', async () => unsubscribe());
      }
    }

    await app.register(streamRoutes, {
      engine,
      source,
      elsewhere: (origin) => (web ? listenerStreamUrl(origin) : source().streamUrl(origin)),
      onListener: (address) => countries.add(address),
    });
    if (web) await app.register(webInstanceSourceRoutes);
    else await app.register(sourceRoutes, { engine, guard: await SourcePasswordGuard.open(app.redis) });
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
        await onAir.switchTo(sourceFor(value));
      },
    });
  },
  { name: 'radio' },
);
