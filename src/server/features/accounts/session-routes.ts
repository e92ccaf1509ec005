import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  changePasswordBodySchema,
  loginBodySchema,
  loginResponseSchema,
  okResponseSchema,
  verifyResponseSchema,
} from '../../../common/admin.js';
import { errorBodySchema } from '../../../common/http.js';
import {
  changePassword,
  PasswordCheckBusyError,
  prepareSignIn,
  SIGN_IN_BUSY,
  openSharedSignInThrottle,
  signIn,
  SignInThrottle,
  type SignInLimiter,
  signOut,
  TooManyAttemptsError,
} from './service.js';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  429: errorBodySchema,
  503: errorBodySchema,
};

/** Sign-in, session check, sign-out and change of one's own password (SPEC.md section 7). */
export async function sessionRoutes(app: FastifyInstance, opts: { throttle?: SignInLimiter }) {
  // With REDIS_URL, attempts on every instance count together.
  const throttle =
    opts.throttle ?? (app.redis ? await openSharedSignInThrottle(app.redis) : new SignInThrottle());
  const api = app.withTypeProvider<ZodTypeProvider>();
  prepareSignIn();

  app.setErrorHandler((error, _request, reply) => {
    // A flood of guesses from many addresses: refuse what the server cannot check now, and say so.
    if (error instanceof PasswordCheckBusyError)
      return reply.code(503).header('Retry-After', '60').send({ message: SIGN_IN_BUSY });
    // The answer itself is the shared error handler's; only the wait is added here.
    if (error instanceof TooManyAttemptsError) reply.header('Retry-After', String(error.retryAfterSeconds));
    throw error;
  });

  api.post(
    '/admin/login',
    {
      config: { access: 'public' },
      schema: { body: loginBodySchema, response: { 200: loginResponseSchema, ...errors } },
    },
    async (request) => signIn(app.db, throttle, { ...request.body, address: request.ip }),
  );

  api.get(
    '/admin/verify',
    { config: { access: 'signed-in' }, schema: { response: { 200: verifyResponseSchema, ...errors } } },
    async (request) => {
      const { id, username, role } = request.staffUser!;
      return { user: { id, username, role } };
    },
  );

  api.post(
    '/admin/logout',
    { config: { access: 'signed-in' }, schema: { response: { 200: okResponseSchema, ...errors } } },
    async (request) => {
      await signOut(app.db, request.staffUser!.sessionId);
      return { ok: true as const };
    },
  );

  api.post(
    '/admin/change-password',
    {
      config: { access: 'signed-in' },
      schema: { body: changePasswordBodySchema, response: { 200: okResponseSchema, ...errors } },
    },
    async (request) => {
      await changePassword(app.db, throttle, request.staffUser!, { ...request.body, address: request.ip });
      return { ok: true as const };
    },
  );
}
