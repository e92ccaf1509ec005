import compress from '@fastify/compress';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Airs } from '../common/programs.js';
import type { StationInfo } from '../common/station.js';
import { STATION_LANGUAGE } from '../common/subtitles.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import clientPlugin from './plugins/client.js';
import jsonBodyPlugin from './plugins/json-body.js';
import errorsPlugin from './plugins/errors.js';
import requestHostPlugin from './plugins/request-host.js';
import type { EventBus } from './plugins/event-bus.js';
import type { SharedRedis } from './plugins/redis.js';
import { openSharedCounts, type SharedCounts } from './plugins/shared-counts.js';
import securityPlugin from './plugins/security.js';
import instanceNamePlugin from './plugins/instance-name.js';
import authPlugin from './plugins/auth.js';
import { accountRoutes } from './features/accounts/routes.js';
import { findSessionUser } from './features/accounts/service.js';
import { backupRoutes } from './features/backup/routes.js';
import { presenterRoutes } from './features/presenters/routes.js';
import { listPresenters, type PresenterSchedule } from './features/presenters/service.js';
import { featuredContentRoutes } from './features/featured-content/routes.js';
import { sampleContentRoutes } from './features/demo/routes.js';
import { stationSettingsRoutes } from './features/settings/routes.js';
import { audioSettingsReader, openStationSettings } from './features/settings/service.js';
import { createMailer } from './features/subscribers/mailer.js';
import { notificationRoutes } from './features/notifications/routes.js';
import { openNotifications, type StationEvent } from './features/notifications/service.js';
import { newsletterPageRoutes, subscriberRoutes } from './features/subscribers/routes.js';
import { newsletterRoutes } from './features/newsletters/routes.js';
import {
  DEFAULT_SENDER_TIMINGS,
  NewsletterSender,
  type SenderTimings,
} from './features/newsletters/sender.js';
import { libraryRoutes } from './features/library/routes.js';
import { onAirRoutes } from './features/on-air/routes.js';
import { programmingTold, recordAsRun } from './features/as-run/service.js';
import { OnAir } from './features/on-air/service.js';
import { reportRoutes } from './features/reports/routes.js';
import { playlistRoutes } from './features/playlists/routes.js';
import { openPlaylists, playlistHoldingMedia, playlistRotation } from './features/playlists/service.js';
import {
  addSermonAudio,
  fileOf,
  libraryFileForUrl,
  libraryItemUsingArtwork,
  mediaExists,
  openLibrary,
  recordLiveProgrammes,
  playableItemsReader,
} from './features/library/service.js';
import { uploadRoutes } from './features/uploads/routes.js';
import { openUploadsFolder } from './features/uploads/service.js';
import { stationRoutes } from './features/station/routes.js';
import { chatRoutes } from './features/chat/routes.js';
import { prayerRoutes } from './features/prayer/routes.js';
import { programRoutes } from './features/programs/routes.js';
import { programmeHoldingMedia, programmeHoldingPlaylist } from './features/programs/service.js';
import { clipRoutes, radioClipAudio } from './features/clips/routes.js';
import { healthRoutes } from './features/health/routes.js';
import radioPlugin from './features/radio/plugin.js';
import realtimePlugin, { goingAway } from './plugins/realtime.js';
import { listenerRoutes } from './features/listeners/routes.js';
import { sharingRoutes } from './features/sharing/routes.js';
import { podcastRoutes } from './features/podcast/routes.js';
import { subtitleRoutes } from './features/subtitles/routes.js';
import { captionFromSpeech } from './features/subtitles/service.js';
import { speechRoutes } from './features/speech/routes.js';
import {
  elsewhereStatus,
  speechEngine,
  startCaptionsFromSpeech,
  startTranscripts,
  transcriptUrlForAudio,
  transcriptUrlsForAudio,
  type SpeechStatusSource,
} from './features/speech/service.js';
import { libreTranslate } from './features/subtitles/translator.js';

export interface AppDeps {
  config: Config;
  db: Database;
  bus: EventBus;
  /** Set with REDIS_URL: what several app instances share besides the bus (limits, counts). */
  redis?: SharedRedis;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    bus: EventBus;
    /** The shared Redis when REDIS_URL is set; features fall back to their in-memory view without it. */
    redis: SharedRedis | undefined;
    /** Figures summed over every app instance (listeners, chat sockets). */
    sharedCounts: SharedCounts;
    station(): StationInfo;
    /**
     * Tells staff of a station event through the Station tab's notification targets. Returns at once and never
     * throws; deliveries are retried in the background (features/notifications).
     */
    notify(event: StationEvent): void;
  }
}

/** Builds the whole station as a Fastify instance; main.ts listens, tests inject. */
export async function buildApp(
  deps: AppDeps,
  options: {
    logger?: boolean | object;
    /** Sees every route as it is added (the fuzz suite collects them this way). */
    onRoute?: (route: RouteOptions) => void;
    /** Which presenter may send live audio when (tests give their own; see below). */
    presenterSchedule?: PresenterSchedule;
    /** How often the media folder is looked at again for files copied in (tests look sooner). */
    mediaRescanMs?: number;
    /** How often the library is looked at for speech with no transcript (tests look sooner). */
    transcribeEveryMs?: number;
    /** How newsletters are retried and looked for (tests retry sooner). */
    newsletterTimings?: Partial<SenderTimings>;
  } = {},
) {
  const app = Fastify({
    logger: options.logger ?? false,
    // Whose X-Forwarded-For decides request.ip (TRUST_PROXY); per-address limits rely on it.
    trustProxy: deps.config.trustProxy,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('config', deps.config);
  app.decorate('db', deps.db);
  app.decorate('bus', deps.bus);
  app.decorate('redis', deps.redis);
  const sharedCounts = openSharedCounts(deps.redis);
  app.decorate('sharedCounts', sharedCounts);
  app.addHook('onClose', async () => sharedCounts.close());
  // Station details staff saved in the Station tab, over the environment's defaults; changes apply at once.
  const stationSettings = await openStationSettings(deps.db, deps.bus, deps.config.station);
  app.decorate('station', () => stationSettings.current());
  app.addHook('onClose', async () => stationSettings.close());
  // Newsletter e-mail (double opt-in) and staff notifications when SMTP_URL is set.
  const mailer = createMailer(deps.config, () => app.station().name);
  if (mailer) app.addHook('onClose', async () => mailer.close());
  // Before the engine, which tells staff of what happens on air (app.notify).
  const notifications = openNotifications(app, { mailer });
  app.decorate('notify', notifications.notify);
  app.addHook('onClose', async () => notifications.close());

  await app.register(errorsPlugin);
  // Before any route: every JSON body is decoded strictly (invalid UTF-8, lone surrogates -> 400).
  await app.register(jsonBodyPlugin);
  // Before any route, so every route's access is known and checked.
  await app.register(authPlugin, { findSessionUser: (token) => findSessionUser(deps.db, token) });
  await app.register(securityPlugin, { extraMediaOrigins: () => mediaOrigins(deps.config) });
  await app.register(compress, { global: true, threshold: 1024, brotliOptions: { params: { 1: 4 } } });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 }, preClose: goingAway });
  // Before any route: a malformed Host is refused, and absolute links are built on a checked origin. After
  // the WebSocket plugin, whose own hook marks an upgrade first: its socket is then closed when refused here.
  await app.register(requestHostPlugin, { publicUrl: deps.config.publicUrl });
  await app.register(instanceNamePlugin);
  // The media library's files and the worker measuring them; the AutoDJ plays from it.
  const uploads = openUploadsFolder(app, deps.config.dataDir);
  // An item a playlist holds is not deleted from the library.
  const timeZone = () => app.station().timeZone;
  const library = openLibrary(app, uploads, {
    inUse: [playlistHoldingMedia(deps.db), programmeHoldingMedia(deps.db, timeZone)],
    rescanMs: options.mediaRescanMs,
  });
  const playlists = openPlaylists({ db: deps.db, folders: library.folders });
  // The radio engine, /stream and live input; then /ws, which pushes its now playing.
  // The schedule decides what airs: programmes, playlists and the rotation over the library.
  const onAir = new OnAir({
    db: deps.db,
    timeZone,
    library: playableItemsReader(library),
    rotation: playlistRotation(playlists),
    exists: { media: (id) => mediaExists(deps.db, id), playlist: (id) => playlists.exists(id) },
  });
  const unfollow = onAir.followSaves(app.bus);
  app.addHook('onClose', async () => unfollow());
  // Which presenter may send live audio when, and their programmes in "My broadcast": the schedule's
  // programmes "live from a presenter" provide it; with none, every presenter's encoder is refused.
  const presenterSchedule = options.presenterSchedule ?? onAir.presenters;
  // The as-run log hears of each item the engine puts on the air through the schedule's own `aired`.
  const told = programmingTold(onAir);
  await app.register(radioPlugin, { programming: told.programming, presenterSchedule });
  // Live programmes on and off air, dead air and failing sources: staff are told (on the broadcaster).
  app.radio.onEvent((event) => void onAir.notice(event).then(app.notify));
  if (deps.config.role !== 'web') {
    const stopWatch = onAir.watchPresenters({
      connected: (presenterId) => {
        const by = app.radio.live.session?.info.connectedBy;
        return by?.kind === 'presenter' && by.presenterId === presenterId;
      },
      presenterName: async (presenterId) =>
        (await listPresenters(deps.db)).find((p) => p.id === presenterId)?.username ?? 'the presenter',
      notify: app.notify,
    });
    app.addHook('onClose', async () => stopWatch());
    // What went on the air, why, in which programme and to how many listeners (issue 45).
    const asRunRecorder = recordAsRun(app, {
      tell: told.tell,
      programmeAt: async (at) => {
        const slot = await onAir.slotAt(at);
        if (!slot) return null;
        const live = slot.airs.kind === 'live';
        return {
          id: slot.programme.id,
          title: slot.programme.title,
          presenterId: slot.airs.kind === 'live' ? slot.airs.presenterId : null,
          live,
        };
      },
    });
    app.decorate('asRunRecorder', asRunRecorder);
    // Live programmes are recorded from the air and wait in the library as sermon drafts.
    const recorder = recordLiveProgrammes(
      library,
      {
        onEvent: (listener) => app.radio.onEvent(listener),
        framesBetween: (from, to) => app.radio.framesBetween(from, to),
        clock: () => app.radio.broadcaster.clock,
      },
      {
        describe: async (event) => {
          const told = await onAir.notice(event);
          return 'programme' in told ? told : {};
        },
        audioSettings: audioSettingsReader(deps.db),
        station: () => app.station(),
      },
    );
    app.addHook('preClose', async () => recorder.stop());
  }
  await app.register(realtimePlugin);

  await app.register(healthRoutes);
  await app.register(stationRoutes, { prefix: '/api' });
  await app.register(programRoutes, { prefix: '/api', airsProblem: (airs: Airs) => onAir.problemWith(airs) });
  await app.register(accountRoutes, { prefix: '/api' });
  await app.register(presenterRoutes, {
    prefix: '/api',
    schedule: presenterSchedule,
    // A web instance takes no live audio: presenters' encoders go to the broadcaster.
    encoderOrigin: (origin) =>
      deps.config.role === 'web' && deps.config.broadcasterUrl ? deps.config.broadcasterUrl : origin,
  });
  await app.register(stationSettingsRoutes, { prefix: '/api', store: stationSettings });
  await app.register(featuredContentRoutes, {
    prefix: '/api',
    uploads,
    // A published recording's featured item shows its library artwork: a picture both name stays.
    imageUsedElsewhere: (url) => libraryItemUsingArtwork(deps.db, url),
    // A sermon whose audio has a finished transcript offers it to listeners.
    transcriptUrls: (urls) => transcriptUrlsForAudio(deps.db, urls),
  });
  await app.register(sampleContentRoutes, { prefix: '/api' });
  await app.register(notificationRoutes, { prefix: '/api', notifications });
  // Newsletter e-mail (double opt-in); its links lead to the pages below.
  await app.register(subscriberRoutes, { mailer, publicUrl: deps.config.publicUrl });
  await app.register(newsletterPageRoutes);
  // Newsletters are sent where the engine runs, one sender for the station (docs/decisions/029).
  const sender =
    mailer && deps.config.publicUrl && deps.config.role !== 'web'
      ? new NewsletterSender({
          db: deps.db,
          mailer,
          origin: deps.config.publicUrl.replace(/\/+$/, ''),
          timings: { ...DEFAULT_SENDER_TIMINGS, ...options.newsletterTimings },
          log: app.log,
        })
      : undefined;
  await app.register(newsletterRoutes, {
    prefix: '/api',
    mailer,
    publicUrl: deps.config.publicUrl,
    queued: () => sender?.kick(),
  });
  if (sender) {
    app.addHook('onReady', async () => sender.start());
    // Before the mailer closes: the message under way is sent and recorded first.
    app.addHook('preClose', async () => sender.stop());
  }
  await app.register(prayerRoutes);
  await app.register(chatRoutes);
  // A sermon's audio uploaded in the Content tab is a library item too.
  await app.register(uploadRoutes, { uploads, onSermonAudio: (stored) => addSermonAudio(library, stored) });
  await app.register(libraryRoutes, { library });
  await app.register(onAirRoutes, { onAir });
  await app.register(reportRoutes, { prefix: '/api' });
  await app.register(playlistRoutes, { inUse: [programmeHoldingPlaylist(deps.db, timeZone)] });
  await app.register(podcastRoutes, {
    audioFile: async (url) => uploads.fileFor(url) ?? (await libraryFileForUrl(library, url)),
    transcriptUrl: (url) => transcriptUrlForAudio(deps.db, url),
  });
  await app.register(listenerRoutes, { prefix: '/api' });
  await app.register(sharingRoutes, { prefix: '/api', liveFigures: () => app.radioFigures() });
  await app.register(backupRoutes, { prefix: '/api' });
  const translator = deps.config.translate && libreTranslate(deps.config.translate);
  await app.register(subtitleRoutes, { prefix: '/api', translator });
  // Captions from the station's own speech, recognised on the broadcaster (docs/decisions/040).
  const engine = speechEngine(deps.config.speech, app.log);
  let speechStatus: SpeechStatusSource = { status: () => elsewhereStatus(engine?.name ?? null) };
  if (deps.config.role !== 'web') {
    /** Automatic lines' translations under way: they finish before the database closes. */
    const translating = new Set<Promise<void>>();
    const speech = await startCaptionsFromSpeech(deps.db, app.bus, {
      air: {
        onPcm: (listener) => app.radio.onPcm(listener),
        onEvent: (listener) => app.radio.onEvent(listener),
        clock: () => app.radio.broadcaster.clock,
      },
      programmeNow: async () => (await onAir.slotAt(Date.now()))?.programme ?? null,
      onAired: (listener) => onAir.onAired(listener),
      engine,
      caption: async (line) => {
        const { translations } = await captionFromSpeech(
          {
            db: deps.db,
            bus: app.bus,
            translator,
            warn: (error) => app.log.warn({ err: error }, 'automatic caption not published'),
          },
          { ...line, language: STATION_LANGUAGE.code },
        );
        translating.add(translations);
        void translations.finally(() => translating.delete(translations));
      },
      log: app.log,
    });
    speechStatus = speech.captions;
    app.addHook('preClose', async () => {
      await speech.stop();
      await Promise.all(translating);
    });
    // Recorded programmes and uploaded sermons get a transcript in the background.
    const transcribing = startTranscripts({
      db: deps.db,
      engine,
      fileOf: (stored) => fileOf(library.folders, stored),
      log: app.log,
      everyMs: options.transcribeEveryMs,
    });
    app.addHook('preClose', async () => transcribing.stop());
  }
  await app.register(speechRoutes, { prefix: '/api', status: speechStatus });

  await app.register(clipRoutes, {
    dataDir: deps.config.dataDir,
    audio: () => radioClipAudio(app),
    broadcasterUrl: deps.config.role === 'web' ? deps.config.broadcasterUrl : undefined,
  });

  await app.register(clientPlugin, { getStation: () => app.station() });
  return app as unknown as FastifyInstance;
}

/**
 * Where players may fetch audio from besides this server: the relays listeners are sent to, and (on a web
 * instance) the broadcaster. A station elsewhere is relayed through our own /stream, never played directly.
 */
function mediaOrigins(config: Config): string[] {
  const urls = [...config.relays.urls];
  if (config.role === 'web' && config.broadcasterUrl) urls.push(config.broadcasterUrl);
  return [...new Set(urls.map((url) => new URL(url).origin))];
}
