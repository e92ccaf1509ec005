import rateLimit from '@fastify/rate-limit';
import { rateLimitStore } from '../../plugins/redis.js';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, staffErrorResponses } from '../../../common/http.js';
import {
  prayerIdParamsSchema,
  prayerListQuerySchema,
  prayerRequestBodySchema,
  prayerRequestListSchema,
  prayerRequestSchema,
  PRAYER_FORM_PATH,
  PRAYER_REQUEST_NOT_FOUND,
  PRAYER_TEXT,
  markReadBodySchema,
  unreadCountSchema,
} from '../../../common/prayer.js';
import {
  deletePrayerRequest,
  listPrayerRequests,
  markPrayedFor,
  markRead,
  submitPrayerRequest,
  unreadCount,
} from './service.js';
import { acceptFormPosts, formValue, sendSmallPage } from '../../form-pages.js';
import { prayerFormPage, prayerThanksPage } from './pages.js';

/**
 * Prayer requests: anyone may send one, by the JSON API or by the home page's form posted as a plain form
 * (before the page's code has arrived); only signed-in staff read them (there is no public read).
 */
export async function prayerRoutes(app: FastifyInstance, opts: { perHour?: number } = {}) {
  await app.register(rateLimit, { global: false, ...rateLimitStore(app.redis, 'prayer') });
  // One count per address for both ways in: the form is no way around the API's limit.
  const perAddress = app.rateLimit({ max: opts.perHour ?? 10, timeWindow: 60 * 60_000 });
  await app.register(prayerApiRoutes, { prefix: '/api', perAddress });
  await app.register(prayerFormRoutes, { perAddress });
}

type Limit = preHandlerAsyncHookHandler;

async function prayerApiRoutes(app: FastifyInstance, opts: { perAddress: Limit }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/prayer-requests',
    {
      onRequest: opts.perAddress,
      schema: {
        body: prayerRequestBodySchema,
        response: { 201: z.object({ message: z.string() }), 400: errorBodySchema },
      },
    },
    async (request, reply) => {
      await submitPrayerRequest(app.db, request.body);
      // The answer carries no id and no text: nothing sent here can be read back by anyone but staff.
      return reply.code(201).send({ message: 'Prayer request received' });
    },
  );

  api.get(
    '/prayer-requests',
    {
      config: { access: 'staff' },
      schema: {
        querystring: prayerListQuerySchema,
        response: { 200: prayerRequestListSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return listPrayerRequests(app.db, request.query.status);
    },
  );

  api.post(
    '/prayer-requests/:id/prayed',
    {
      config: { access: 'staff' },
      schema: {
        params: prayerIdParamsSchema,
        response: { 200: prayerRequestSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const prayed = await markPrayedFor(app.db, request.params.id, request.staffUser!.username);
      return prayed ?? reply.code(404).send({ message: PRAYER_REQUEST_NOT_FOUND });
    },
  );

  api.delete(
    '/prayer-requests/:id',
    {
      config: { access: 'staff' },
      schema: { params: prayerIdParamsSchema, response: { 204: z.null(), ...staffErrorResponses } },
    },
    async (request, reply) => {
      const deleted = await deletePrayerRequest(app.db, request.params.id);
      return deleted
        ? reply.code(204).send(null)
        : reply.code(404).send({ message: PRAYER_REQUEST_NOT_FOUND });
    },
  );

  api.get(
    '/prayer-requests/unread-count',
    { config: { access: 'staff' }, schema: { response: { 200: unreadCountSchema, ...staffErrorResponses } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return unreadCount(app.db);
    },
  );

  api.post(
    '/prayer-requests/read',
    {
      config: { access: 'staff' },
      schema: { body: markReadBodySchema, response: { 200: unreadCountSchema, ...staffErrorResponses } },
    },
    async (request) => markRead(app.db, new Date(request.body.upTo)),
  );
}

/**
 * The home page's prayer form, posted by the browser itself (docs/decisions/020): the same contract as the
 * API, answered with the card's thanks on a page, or the form again with what was typed and what is wrong.
 */
async function prayerFormRoutes(app: FastifyInstance, opts: { perAddress: Limit }) {
  const valuesOf = (body: unknown) => ({
    name: formValue(body, 'name'),
    request: formValue(body, 'request'),
  });
  // SPEC.md's one failure text, whatever stopped it (a limit, a fault), as the card's toast says.
  acceptFormPosts(app, (failure, request) =>
    prayerFormPage(
      valuesOf(request.body),
      { status: failure.status, message: PRAYER_TEXT.failed },
      app.station().name,
    ),
  );

  // After the body is read, so a request refused by the limit is shown again as typed.
  app.post(PRAYER_FORM_PATH, { preHandler: opts.perAddress }, async (request, reply) => {
    const parsed = prayerRequestBodySchema.safeParse(request.body ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path[0] === 'name' ? 'name' : issue.path[0] === 'request' ? 'request' : undefined;
      const problem = { status: 400, field, message: issue.message } as const;
      return sendSmallPage(reply, prayerFormPage(valuesOf(request.body), problem, app.station().name));
    }
    await submitPrayerRequest(app.db, parsed.data);
    return sendSmallPage(reply, prayerThanksPage(app.station().name));
  });
}
