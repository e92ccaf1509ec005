import type { FastifyInstance } from 'fastify';
import type { SignInLimiter } from './service.js';
import { sessionRoutes } from './session-routes.js';
import { userRoutes } from './user-routes.js';

/** Everything under /api/admin that concerns accounts: sessions, own password, user management. */
export async function accountRoutes(app: FastifyInstance, opts: { throttle?: SignInLimiter }) {
  await app.register(sessionRoutes, { throttle: opts.throttle });
  await app.register(userRoutes);
}
