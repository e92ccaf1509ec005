import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../common/http.js';
import {
  deliveryResultSchema,
  notificationSettingsInputSchema,
  notificationSettingsSchema,
  notificationTargetParamsSchema,
} from '../../../common/notifications.js';
import { NotificationSettingsError, type Notifications } from './service.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

/**
 * The Station tab's notifications (superuser, like the rest of the tab): the targets and their last results, and
 * a test message to one target, sent from whichever instance the request reaches.
 */
export async function notificationRoutes(app: FastifyInstance, opts: { notifications: Notifications }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/admin/notifications',
    { config: { access: 'superuser' }, schema: { response: { 200: notificationSettingsSchema, ...errors } } },
    async () => opts.notifications.settings(),
  );

  api.put(
    '/admin/notifications',
    {
      config: { access: 'superuser' },
      schema: {
        body: notificationSettingsInputSchema,
        response: { 200: notificationSettingsSchema, ...errors },
      },
    },
    async (request, reply) => {
      try {
        return await opts.notifications.save(request.body);
      } catch (error) {
        if (error instanceof NotificationSettingsError)
          return reply.code(400).send({ message: error.message });
        throw error;
      }
    },
  );

  api.post(
    '/admin/notifications/test/:target',
    {
      config: { access: 'superuser' },
      schema: {
        params: notificationTargetParamsSchema,
        response: { 200: deliveryResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      try {
        return await opts.notifications.sendTest(request.params.target);
      } catch (error) {
        if (error instanceof NotificationSettingsError)
          return reply.code(400).send({ message: error.message });
        throw error;
      }
    },
  );
}
