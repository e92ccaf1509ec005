import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../common/http.js';
import { SPEECH_PATH, speechSettingsSchema, speechStatusSchema } from '../../../common/speech.js';
import { saveSpeechSettings, speechSettings, type SpeechStatusSource } from './service.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

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
}
