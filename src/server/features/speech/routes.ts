import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../common/http.js';
import { z } from 'zod';
import {
  SPEECH_PATH,
  speechSettingsSchema,
  speechStatusSchema,
  transcriptEditSchema,
  transcriptParamsSchema,
  transcriptSchema,
} from '../../../common/speech.js';
import {
  editTranscript,
  retranscribe,
  saveSpeechSettings,
  speechSettings,
  transcriptFor,
  transcriptVtt,
  type SpeechStatusSource,
} from './service.js';

const NO_TRANSCRIPT = 'This item has no transcript yet';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** The Captions tab's captions from speech: settings (staff turn them on) and how the recogniser is doing. */
export async function speechRoutes(app: FastifyInstance, opts: { status: SpeechStatusSource }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const path = SPEECH_PATH.replace(/^\/api/, '');

  api.get(
    `${path}/settings`,
    { config: { access: 'staff' }, schema: { response: { 200: speechSettingsSchema, ...errors } } },
    async () => speechSettings(app.db),
  );

  api.put(
    `${path}/settings`,
    {
      config: { access: 'staff' },
      schema: { body: speechSettingsSchema, response: { 200: speechSettingsSchema, ...errors } },
    },
    async (request) => {
      const next = { ...request.body, wordList: [...new Set(request.body.wordList)] };
      await saveSpeechSettings(app.db, app.bus, next);
      return next;
    },
  );

  api.get(
    `${path}/status`,
    { config: { access: 'staff' }, schema: { response: { 200: speechStatusSchema, ...errors } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return opts.status.status();
    },
  );

  // --- transcripts of recordings ---------------------------------------------------------------------
  api.get(
    `${path}/transcripts/:mediaId`,
    {
      config: { access: 'staff' },
      schema: { params: transcriptParamsSchema, response: { 200: transcriptSchema, ...errors } },
    },
    async (request, reply) => {
      const found = await transcriptFor(app.db, request.params.mediaId);
      return found ?? reply.code(404).send({ message: NO_TRANSCRIPT });
    },
  );

  api.put(
    `${path}/transcripts/:mediaId`,
    {
      config: { access: 'staff' },
      schema: {
        params: transcriptParamsSchema,
        body: transcriptEditSchema,
        response: { 200: transcriptSchema, ...errors },
      },
    },
    async (request, reply) => {
      if (!(await editTranscript(app.db, request.params.mediaId, request.body.cues))) {
        return reply.code(404).send({ message: 'This item has no finished transcript to correct' });
      }
      return (await transcriptFor(app.db, request.params.mediaId))!;
    },
  );

  api.post(
    `${path}/transcripts/:mediaId/redo`,
    {
      config: { access: 'staff' },
      schema: { params: transcriptParamsSchema, response: { 202: z.null(), ...errors } },
    },
    async (request, reply) => {
      if (!(await retranscribe(app.db, request.params.mediaId))) {
        return reply.code(404).send({ message: 'No such library item' });
      }
      return reply.code(202).send(null);
    },
  );

  // Public: players and podcast apps read it (the feed links it for published sermons).
  api.get(
    `${path}/transcripts/:mediaId/transcript.vtt`,
    {
      config: { access: 'public' },
      schema: {
        params: transcriptParamsSchema,
        response: { 200: z.string(), 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const vtt = await transcriptVtt(app.db, request.params.mediaId);
      if (vtt === null) return reply.code(404).send({ message: NO_TRANSCRIPT });
      return reply.type('text/vtt; charset=utf-8').header('Cache-Control', 'public, max-age=60').send(vtt);
    },
  );
}
