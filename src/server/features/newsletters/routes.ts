import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, idParamsSchema } from '../../../common/http.js';
import {
  NEWSLETTER_NEEDS_SMTP,
  NO_CONFIRMED_SUBSCRIBERS,
  newsletterDetailSchema,
  newsletterDraftSchema,
  newsletterListSchema,
  newsletterPreviewSchema,
  newsletterSendSchema,
  newsletterTestSchema,
} from '../../../common/newsletters.js';
import type { Mailer } from '../subscribers/service.js';
import {
  listNewsletters,
  newsletterDetail,
  previewNewsletter,
  queueNewsletter,
  sendTestNewsletter,
} from './service.js';
import { smtpAnswer } from './sender.js';

export interface NewsletterRoutesOptions {
  /** Without it (no SMTP_URL) the composer previews but sends nothing. */
  mailer?: Mailer;
  /** PUBLIC_URL, which SMTP_URL requires: where e-mailed links and pictures point. */
  publicUrl?: string;
  /** Told when a newsletter was queued (the sender on this instance, if it runs here). */
  queued: () => void;
}

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

/** The Subscribers tab's newsletter (staff only): compose, preview, test, send, and what was sent. */
export async function newsletterRoutes(app: FastifyInstance, opts: NewsletterRoutesOptions) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { mailer } = opts;
  const origin = opts.publicUrl?.replace(/\/+$/, '');

  api.get(
    '/newsletters',
    { config: { access: 'staff' }, schema: { response: { 200: newsletterListSchema, ...errors } } },
    async () => ({ canSend: mailer !== undefined, newsletters: await listNewsletters(app.db) }),
  );

  api.get(
    '/newsletters/:id',
    {
      config: { access: 'staff' },
      schema: {
        params: idParamsSchema,
        response: { 200: newsletterDetailSchema, 404: errorBodySchema, ...errors },
      },
    },
    async (request, reply) => {
      const detail = await newsletterDetail(app.db, request.params.id);
      return detail ?? reply.code(404).send({ message: 'No such newsletter' });
    },
  );

  api.post(
    '/newsletters/preview',
    {
      config: { access: 'staff' },
      schema: { body: newsletterDraftSchema, response: { 200: newsletterPreviewSchema, ...errors } },
    },
    async (request, reply) =>
      previewNewsletter(request.body, origin ?? app.linkOrigin(request, reply), app.station().name),
  );

  api.post(
    '/newsletters/test',
    {
      config: { access: 'staff' },
      schema: {
        body: newsletterTestSchema,
        response: {
          200: z.object({ message: z.string() }),
          409: errorBodySchema,
          502: errorBodySchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      if (!mailer || !origin) return reply.code(409).send({ message: NEWSLETTER_NEEDS_SMTP });
      try {
        await sendTestNewsletter(mailer, request.body, origin);
      } catch (error) {
        return reply.code(502).send({ message: `The SMTP server did not take it: ${smtpAnswer(error)}` });
      }
      return { message: `A test was sent to ${request.body.to}` };
    },
  );

  api.post(
    '/newsletters',
    {
      config: { access: 'staff' },
      schema: {
        body: newsletterSendSchema,
        response: { 202: z.object({ id: z.string() }), 409: errorBodySchema, ...errors },
      },
    },
    async (request, reply) => {
      if (!mailer) return reply.code(409).send({ message: NEWSLETTER_NEEDS_SMTP });
      const id = await queueNewsletter(app.db, request.body, request.staffUser!.username);
      if (!id) return reply.code(409).send({ message: NO_CONFIRMED_SUBSCRIBERS });
      opts.queued();
      return reply.code(202).send({ id });
    },
  );
}
