import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../common/http.js';
import {
  captionBodySchema,
  captionResultSchema,
  INGEST_KEY_HEADER,
  subtitleEntryListSchema,
  subtitleLanguageListSchema,
  subtitleLanguageParamsSchema,
  subtitlePushSchema,
  SUBTITLE_TEXT,
} from '../../../common/subtitles.js';
import { authenticateStaff, bearerToken, refusalFor, SESSION_ENDED } from '../../plugins/auth.js';
import type { RealtimeClient } from '../../plugins/realtime.js';
import {
  captionSecond,
  pruneSubtitles,
  publishLines,
  recentLanguages,
  recentLines,
  storeCaption,
  storeCue,
  SUBTITLE_TOPIC,
  translateCaption,
  type StoredLine,
  type Translator,
} from './service.js';

const PRUNE_EVERY_MS = 10 * 60_000;

export interface SubtitleRouteOptions {
  /** Fills languages a caption does not supply; none by default. */
  translator?: Translator;
}

function sameKey(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Subtitles (DESIGN.md section 5): AutoDJ cues as their file plays and live captions are stored on the
 * stream clock, read by language, and pushed over /ws to the listeners who chose that language.
 */
export async function subtitleRoutes(app: FastifyInstance, opts: SubtitleRouteOptions = {}) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const log = app.log.child({ feature: 'subtitles' });

  // --- pushing new lines -------------------------------------------------------------------------
  const byLanguage = new Map<string, Set<RealtimeClient>>();
  const choose = (client: RealtimeClient, language: string | null) => {
    for (const [code, clients] of byLanguage) {
      clients.delete(client);
      if (clients.size === 0) byLanguage.delete(code);
    }
    if (language === null) return;
    const clients = byLanguage.get(language) ?? new Set();
    clients.add(client);
    byLanguage.set(language, clients);
  };
  app.realtime.on('subtitles_language', (message, client) => choose(client, message.language));
  app.realtime.onDisconnect((client) => choose(client, null));
  const unsubscribe = app.bus.subscribe(SUBTITLE_TOPIC, (payload) => {
    const parsed = subtitlePushSchema.safeParse(payload);
    if (!parsed.success) return;
    for (const client of byLanguage.get(parsed.data.language) ?? []) {
      client.send({ type: 'subtitle', data: parsed.data });
    }
  });
  const publish = (lines: StoredLine[]) =>
    publishLines(app.bus, lines, (error) => log.warn({ err: error }, 'subtitle line not published'));

  // --- AutoDJ cues: the engine hands them over; it knows nothing of the database ------------------
  let writes = Promise.resolve();
  const translating = new Set<Promise<void>>();
  const offCue = app.radio.onCue((cue) => {
    writes = writes
      .then(() => storeCue(app.db, cue))
      .then((line) => {
        if (line) publish([line]);
      })
      .catch((error: unknown) => log.warn({ err: error }, 'subtitle cue not stored'));
  });

  const prune = setInterval(() => {
    pruneSubtitles(app.db).catch((error: unknown) => log.warn({ err: error }, 'subtitles not pruned'));
  }, PRUNE_EVERY_MS);
  prune.unref();
  app.addHook('onClose', async () => {
    clearInterval(prune);
    offCue();
    unsubscribe();
    await Promise.all([writes, ...translating]);
  });

  // --- reads ---------------------------------------------------------------------------------------
  api.get(
    '/subtitles/languages',
    { schema: { response: { 200: subtitleLanguageListSchema } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=5');
      return recentLanguages(app.db);
    },
  );

  api.get(
    '/subtitles/:language',
    {
      schema: {
        params: subtitleLanguageParamsSchema,
        response: { 200: subtitleEntryListSchema, 304: z.null(), 400: errorBodySchema },
      },
    },
    async (request, reply) => {
      const lines = await recentLines(app.db, request.params.language);
      const etag = `W/"${createHash('sha1').update(JSON.stringify(lines)).digest('base64url').slice(0, 20)}"`;
      // Short-lived: a line is pushed as it is stored, the read only fills in what a listener missed.
      reply.header('ETag', etag).header('Cache-Control', 'public, max-age=2');
      const given = request.headers['if-none-match'];
      if (given && given.split(',').some((tag) => tag.trim() === etag))
        return reply
          .code(304)
          .serializer(() => '')
          .send(null);
      return lines;
    },
  );

  // --- live captioning -----------------------------------------------------------------------------
  const mayCaption = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers[INGEST_KEY_HEADER];
    if (key !== undefined) {
      const expected = app.config.subtitleIngestKey;
      if (typeof key === 'string' && expected && sameKey(key, expected)) return;
      return reply.code(401).send({ message: SUBTITLE_TEXT.wrongKey });
    }
    if (!bearerToken(request)) return reply.code(401).send({ message: SUBTITLE_TEXT.credentialsRequired });
    const user = await authenticateStaff(app, request);
    if (!user) return reply.code(401).send({ message: SESSION_ENDED });
    const refused = refusalFor('staff', user.role);
    if (refused) return reply.code(403).send({ message: refused });
    request.staffUser = user;
  };

  api.post(
    '/subtitles',
    {
      // Staff sign-in or the ingest key, checked before the body is read.
      config: { access: 'public' },
      onRequest: mayCaption,
      schema: {
        body: captionBodySchema,
        response: {
          201: captionResultSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const caption = request.body;
      const second = captionSecond(caption.timestamp, app.nowPlaying.nowPlaying().stream_clock);
      if (!second.ok) return reply.code(400).send({ message: second.reason });
      const { result, lines } = await storeCaption(app.db, caption, second.timestamp);
      publish(lines);
      const translator = opts.translator;
      if (translator) {
        // After the answer: a slow translation service never holds up the captioner or the broadcast.
        const supplied = lines.map((l) => l.language);
        const job = translateCaption(app.db, translator, caption, second.timestamp, supplied)
          .then(publish)
          .catch((error: unknown) => log.warn({ err: error }, 'caption not translated'))
          .finally(() => translating.delete(job));
        translating.add(job);
      }
      return reply.code(201).send(result);
    },
  );
}
