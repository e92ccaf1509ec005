import type { FastifyInstance } from 'fastify';
import { sessionRoutes } from './session-routes.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import { userRoutes } from './user-routes.js';

/** Everything under /api/admin that concerns accounts: sessions, own password, user management. */
export async function adminRoutes(app: FastifyInstance, opts: { throttle?: SignInThrottle }) {
  await app.register(sessionRoutes, { throttle: opts.throttle });
  await app.register(userRoutes);
}
