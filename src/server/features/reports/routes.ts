import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { staffErrorResponses } from '../../../common/http.js';
import {
  licenceCheckSchema,
  licenceQuerySchema,
  listenerReportSchema,
  reportPeriodSchema,
  retentionSchema,
} from '../../../common/reports.js';
import { checkLicence, licenceFile, listenersFor, retentionDays, saveRetentionDays } from './service.js';

/**
 * The Reports tab's API: licence files and the listener report of a period. Admins and superusers see the whole
 * station; a presenter (signed in) sees what aired in their own programmes only.
 */
export async function reportRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/admin/reports/licence/check',
    {
      config: { access: 'signed-in' },
      schema: {
        querystring: licenceQuerySchema,
        response: { 200: licenceCheckSchema, ...staffErrorResponses },
      },
    },
    async (request) => checkLicence(app.db, request.query, app.station().timeZone, request.staffUser!),
  );

  api.get(
    '/admin/reports/licence',
    { config: { access: 'signed-in' }, schema: { querystring: licenceQuerySchema } },
    async (request, reply) => {
      const file = await licenceFile(app.db, request.query, app.station(), request.staffUser!);
      return reply
        .header('Content-Type', file.type)
        .header('Content-Disposition', `attachment; filename="${file.name}"`)
        .header('Cache-Control', 'no-store')
        .send(file.body);
    },
  );

  api.get(
    '/admin/reports/listeners',
    {
      config: { access: 'signed-in' },
      schema: {
        querystring: reportPeriodSchema,
        response: { 200: listenerReportSchema, ...staffErrorResponses },
      },
    },
    async (request) => listenersFor(app.db, request.query, app.station().timeZone, request.staffUser!),
  );

  api.get(
    '/admin/reports/retention',
    { config: { access: 'staff' }, schema: { response: { 200: retentionSchema, ...staffErrorResponses } } },
    async () => ({ days: await retentionDays(app.db) }),
  );

  api.put(
    '/admin/reports/retention',
    {
      config: { access: 'superuser' },
      schema: { body: retentionSchema, response: { 200: retentionSchema, ...staffErrorResponses } },
    },
    async (request) => ({ days: await saveRetentionDays(app.db, request.body.days) }),
  );
}
