import rateLimit from '@fastify/rate-limit';
import { rateLimitStore } from '../../plugins/redis.js';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../common/http.js';
import { z } from 'zod';
import {
  CONFIRMATION_NOT_SENT_MESSAGE,
  CONFIRMATION_SENT_MESSAGE,
  NEWSLETTER_FORM_PATH,
  NEWSLETTER_TEXT,
  SUBSCRIBED_MESSAGE,
  subscribeBodySchema,
  subscriberListSchema,
} from '../../../common/subscribers.js';
import type { Mailer } from './mailer.js';
import {
  confirmPage,
  invalidLinkPage,
  subscribedPage,
  subscribeFormPage,
  unsubscribedPage,
  unsubscribeQuestionPage,
} from './pages.js';
import { acceptFormPosts, formValue, sendSmallPage } from '../../form-pages.js';
import {
  confirmSubscription,
  listSubscribers,
  subscribe,
  subscribersCsv,
  unsubscribe,
  unsubscribeLinkStatus,
  type OptIn,
} from './service.js';

export interface SubscriberRoutesOptions {
  /** Subscriptions one address may send per hour. */
  perHour?: number;
  /** Double opt-in: set when SMTP_URL is (PUBLIC_URL is then set too). */
  mailer?: Mailer;
  publicUrl?: string;
}

/**
 * The newsletter: anyone subscribes, by the JSON API or by the home page's form posted as a plain form
 * (before the page's code has arrived); the Subscribers tab (staff only) and its CSV export.
 */
export async function subscriberRoutes(app: FastifyInstance, opts: SubscriberRoutesOptions = {}) {
  await app.register(rateLimit, { global: false, ...rateLimitStore(app.redis, 'subscribers') });
  // One count per address for both ways in: the form is no way around the API's limit.
  const perAddress = app.rateLimit({ max: opts.perHour ?? 10, timeWindow: 60 * 60_000 });
  const optIn: OptIn | undefined =
    opts.mailer && opts.publicUrl
      ? { mailer: opts.mailer, publicUrl: opts.publicUrl, stationName: () => app.station().name }
      : undefined;
  await app.register(subscriberApiRoutes, { prefix: '/api', perAddress, optIn });
  await app.register(subscribeFormRoutes, { perAddress, optIn });
}

interface SubscribeScope {
  perAddress: preHandlerAsyncHookHandler;
  optIn: OptIn | undefined;
}

async function subscriberApiRoutes(app: FastifyInstance, { perAddress, optIn }: SubscribeScope) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/email-subscribe',
    {
      onRequest: perAddress,
      schema: {
        body: subscribeBodySchema,
        response: {
          201: z.object({ message: z.string() }),
          400: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const outcome = await subscribe(app.db, request.body, optIn);
      switch (outcome.kind) {
        case 'confirmed':
          return reply.code(201).send({ message: SUBSCRIBED_MESSAGE });
        case 'confirmation_sent':
        case 'already_confirmed':
          // The same answer either way: a subscription never tells whether the address was known.
          return reply.code(201).send({ message: CONFIRMATION_SENT_MESSAGE });
        case 'not_sent':
          request.log.warn({ err: outcome.error }, 'the confirmation e-mail was not sent');
          return reply.code(503).send({ message: CONFIRMATION_NOT_SENT_MESSAGE });
      }
    },
  );

  api.get(
    '/email-subscribers',
    {
      config: { access: 'staff' },
      schema: { response: { 200: subscriberListSchema, 401: errorBodySchema, 403: errorBodySchema } },
    },
    async () => listSubscribers(app.db),
  );

  api.get('/email-subscribers.csv', { config: { access: 'staff' } }, async (_request, reply) => {
    const date = new Date().toISOString().slice(0, 10);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="subscribers-${date}.csv"`)
      .header('Cache-Control', 'no-store')
      .send(await subscribersCsv(app.db));
  });
}

/**
 * The home page's newsletter form, posted by the browser itself (docs/decisions/020): the same contract and
 * the same outcomes as the API, answered with the form's thanks on a page, or the form again with what was
 * typed and what is wrong.
 */
async function subscribeFormRoutes(app: FastifyInstance, { perAddress, optIn }: SubscribeScope) {
  const valuesOf = (body: unknown) => ({ email: formValue(body, 'email'), name: formValue(body, 'name') });
  const formAgain = (body: unknown, problem: Parameters<typeof subscribeFormPage>[1]) =>
    subscribeFormPage(valuesOf(body), problem, app.station().name);
  // As the form's toast: the server's message, or SPEC.md's words when there is none to show.
  acceptFormPosts(app, (failure, request) =>
    formAgain(request.body, { status: failure.status, message: failure.message ?? NEWSLETTER_TEXT.failed }),
  );

  // After the body is read, so a subscription refused by the limit is shown again as typed.
  app.post(NEWSLETTER_FORM_PATH, { preHandler: perAddress }, async (request, reply) => {
    const parsed = subscribeBodySchema.safeParse(request.body ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path[0] === 'email' ? 'email' : issue.path[0] === 'name' ? 'name' : undefined;
      return sendSmallPage(reply, formAgain(request.body, { status: 400, field, message: issue.message }));
    }
    const outcome = await subscribe(app.db, parsed.data, optIn);
    if (outcome.kind === 'not_sent') {
      request.log.warn({ err: outcome.error }, 'the confirmation e-mail was not sent');
      return sendSmallPage(
        reply,
        formAgain(request.body, { status: 503, message: CONFIRMATION_NOT_SENT_MESSAGE }),
      );
    }
    return sendSmallPage(reply, subscribedPage(outcome.kind !== 'confirmed', app.station().name));
  });
}

/** The one `token` of a page's query, if it has exactly one. */
const tokenOf = (query: unknown): string | undefined => {
  const token = (query as { token?: unknown } | undefined)?.token;
  return typeof token === 'string' ? token : undefined;
};

/**
 * The pages the newsletter's e-mails link to: /newsletter/confirm (opening it confirms, as double opt-in
 * expects) and /unsubscribe (GET asks, POST acts: mail scanners open links, and RFC 8058's one-click POST
 * comes from the mail client). A bad, forged or expired link answers a 400 page, never a 5xx.
 */
export async function newsletterPageRoutes(app: FastifyInstance) {
  const send = sendSmallPage;

  // The unsubscribe POST carries a form body (the page's button) or RFC 8058's `List-Unsubscribe=One-Click`;
  // the token in the address is all it needs, so any small body is read and set aside.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 16 * 1024 }, (_request, _body, done) =>
    done(null),
  );

  app.get('/newsletter/confirm', async (request, reply) => {
    const outcome = await confirmSubscription(app.db, tokenOf(request.query));
    return send(reply, confirmPage(outcome, app.station().name));
  });

  app.get('/unsubscribe', async (request, reply) => {
    const token = tokenOf(request.query);
    const status = await unsubscribeLinkStatus(app.db, token);
    const station = app.station().name;
    if (!status || token === undefined) return send(reply, invalidLinkPage(station));
    return send(reply, unsubscribeQuestionPage(token, status === 'unsubscribed', station));
  });

  app.post('/unsubscribe', async (request, reply) => {
    const done = await unsubscribe(app.db, tokenOf(request.query));
    return send(reply, unsubscribedPage(done, app.station().name));
  });
}
