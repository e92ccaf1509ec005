import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { userIdParamsSchema } from '../../../common/admin.js';
import { errorBodySchema } from '../../../common/http.js';
import {
  myBroadcastSchema,
  PRESENTER_UPCOMING_HOURS,
  presenterListSchema,
  presenterSourcePasswordSchema,
} from '../../../common/presenters.js';
import { listPresenters, myBroadcast, rotateSourcePassword, type PresenterSchedule } from './service.js';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/**
 * A presenter's "My broadcast" (their encoder's settings, their programmes, their own source password), the
 * superuser's rotation of a presenter's source password, and the presenters staff can give a programme to.
 */
export async function presenterRoutes(
  app: FastifyInstance,
  opts: { schedule: PresenterSchedule; encoderOrigin: (origin: string) => string },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/admin/presenters/me',
    { config: { access: 'presenter' }, schema: { response: { 200: myBroadcastSchema, ...errors } } },
    async (request, reply) =>
      myBroadcast(app.db, opts.schedule, request.staffUser!, {
        origin: opts.encoderOrigin(app.linkOrigin(request, reply)),
        hours: PRESENTER_UPCOMING_HOURS,
      }),
  );

  api.post(
    '/admin/presenters/me/source-password',
    {
      config: { access: 'presenter' },
      schema: { response: { 200: presenterSourcePasswordSchema, ...errors } },
    },
    async (request) => ({ sourcePassword: await rotateSourcePassword(app.db, request.staffUser!.id) }),
  );

  api.post(
    '/admin/accounts/:id/source-password',
    {
      config: { access: 'superuser' },
      schema: { params: userIdParamsSchema, response: { 200: presenterSourcePasswordSchema, ...errors } },
    },
    async (request) => ({ sourcePassword: await rotateSourcePassword(app.db, request.params.id) }),
  );

  api.get(
    '/admin/presenters',
    { config: { access: 'staff' }, schema: { response: { 200: presenterListSchema, ...errors } } },
    async () => listPresenters(app.db),
  );
}
