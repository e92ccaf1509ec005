import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sourcePasswordResponseSchema, stationSettingsSchema } from '../../../common/admin.js';
import { audioSettingsSchema } from '../../../common/audio-settings.js';
import { errorBodySchema } from '../../../common/http.js';
import { stationInfoSchema } from '../../../common/station.js';
import {
  audioSettings,
  rotateSourcePassword,
  saveAudioSettings,
  type StationSettingsStore,
} from './service.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

/**
 * The superuser's Station tab: station details applied at once, the live-input password rotation, and the
 * audio settings the engine reads before each track.
 */
export async function stationSettingsRoutes(app: FastifyInstance, opts: { store: StationSettingsStore }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/admin/station',
    { config: { access: 'superuser' }, schema: { response: { 200: stationInfoSchema, ...errors } } },
    async () => opts.store.current(),
  );

  api.put(
    '/admin/station',
    {
      config: { access: 'superuser' },
      schema: { body: stationSettingsSchema, response: { 200: stationInfoSchema, ...errors } },
    },
    async (request) => opts.store.save(request.body),
  );

  api.post(
    '/admin/station/source-password',
    {
      config: { access: 'superuser' },
      schema: { response: { 200: sourcePasswordResponseSchema, ...errors } },
    },
    async () => ({ sourcePassword: await rotateSourcePassword(app.db) }),
  );

  api.get(
    '/admin/station/audio',
    { config: { access: 'superuser' }, schema: { response: { 200: audioSettingsSchema, ...errors } } },
    async () => audioSettings(app.db),
  );

  api.put(
    '/admin/station/audio',
    {
      config: { access: 'superuser' },
      schema: { body: audioSettingsSchema, response: { 200: audioSettingsSchema, ...errors } },
    },
    async (request) => saveAudioSettings(app.db, request.body),
  );
}
