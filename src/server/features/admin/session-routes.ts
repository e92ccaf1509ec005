import { eq } from 'drizzle-orm';
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
import { adminUsers } from '../../db/schema.js';
import { PasswordCheckBusyError, passwordMatches, prepareDummyHash } from './password-check.js';
import { createSession, revokeSession, revokeUserSessions } from './sessions.js';
import { SignInThrottle, tooManyAttemptsMessage } from './sign-in-throttle.js';
import { findUserById, findUserByUsername, setPassword } from './users.js';

export const INVALID_CREDENTIALS = 'Invalid credentials';
export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';
export const SIGN_IN_BUSY = 'Too many sign-in attempts right now. Please wait a minute and try again.';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  429: errorBodySchema,
  503: errorBodySchema,
};

/** Sign-in, session check, sign-out and change of one's own password (SPEC.md section 7). */
export async function sessionRoutes(app: FastifyInstance, opts: { throttle?: SignInThrottle }) {
  const throttle = opts.throttle ?? new SignInThrottle();
  const api = app.withTypeProvider<ZodTypeProvider>();
  void prepareDummyHash();

  // A flood of guesses from many addresses: refuse what the server cannot check now, and say so.
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof PasswordCheckBusyError)
      return reply.code(503).header('Retry-After', '60').send({ message: SIGN_IN_BUSY });
    throw error;
  });

  api.post(
    '/admin/login',
    {
      config: { access: 'public' },
      schema: { body: loginBodySchema, response: { 200: loginResponseSchema, ...errors } },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      // The lock is checked before any hashing: a locked-out guesser costs us nothing.
      if (!throttle.begin(username, request.ip)) {
        const wait = throttle.retryAfterMs(username, request.ip);
        reply.header('Retry-After', String(Math.ceil(wait / 1000)));
        return reply.code(429).send({ message: tooManyAttemptsMessage(wait) });
      }
      const user = await findUserByUsername(app.db, username);
      const matches = await passwordMatches(user?.passwordHash, password);
      if (!user || !matches || user.isActive !== 'true') {
        return reply.code(401).send({ message: INVALID_CREDENTIALS });
      }
      throttle.succeeded(username, request.ip);
      const now = new Date();
      const session = await createSession(app.db, user.id, now);
      await app.db.update(adminUsers).set({ lastLogin: now }).where(eq(adminUsers.id, user.id));
      return {
        token: session.token,
        expiresAt: session.expiresAt.toISOString(),
        user: { id: user.id, username: user.username, role: user.role },
      };
    },
  );

  api.get(
    '/admin/verify',
    { config: { access: 'staff' }, schema: { response: { 200: verifyResponseSchema, ...errors } } },
    async (request) => {
      const { id, username, role } = request.staffUser!;
      return { user: { id, username, role } };
    },
  );

  api.post(
    '/admin/logout',
    { config: { access: 'staff' }, schema: { response: { 200: okResponseSchema, ...errors } } },
    async (request) => {
      await revokeSession(app.db, request.staffUser!.sessionId);
      return { ok: true as const };
    },
  );

  api.post(
    '/admin/change-password',
    {
      config: { access: 'staff' },
      schema: { body: changePasswordBodySchema, response: { 200: okResponseSchema, ...errors } },
    },
    async (request, reply) => {
      const staff = request.staffUser!;
      // Guessing the current password with a stolen token is throttled like signing in.
      if (!throttle.begin(staff.username, request.ip)) {
        const wait = throttle.retryAfterMs(staff.username, request.ip);
        reply.header('Retry-After', String(Math.ceil(wait / 1000)));
        return reply.code(429).send({ message: tooManyAttemptsMessage(wait) });
      }
      const user = await findUserById(app.db, staff.id);
      if (!(await passwordMatches(user?.passwordHash, request.body.currentPassword))) {
        return reply.code(400).send({ message: WRONG_CURRENT_PASSWORD });
      }
      throttle.succeeded(staff.username, request.ip);
      await setPassword(app.db, staff.id, request.body.newPassword);
      await revokeUserSessions(app.db, staff.id, staff.sessionId);
      return { ok: true as const };
    },
  );
}
