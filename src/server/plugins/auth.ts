import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isStaffRole, type Role } from '../../common/accounts.js';
import { PRESENTER_TEXT } from '../../common/presenters.js';

/**
 * Who may call a route, declared once in its options: `{ config: { access: 'staff' } }`.
 * 'staff' is any signed-in admin or superuser; 'superuser' is user management and station settings;
 * 'presenter' is a presenter's own "My broadcast"; 'signed-in' is anyone signed in, presenters included
 * (the session check, signing out, changing one's own password).
 */
export type Access = 'public' | 'signed-in' | 'presenter' | 'staff' | 'superuser';

/** The signed-in staff member behind a session. */
export interface SessionUser {
  sessionId: string;
  id: string;
  username: string;
  role: Role;
}

/** How the plugin learns who holds a bearer token; app.ts hands it the accounts feature's lookup. */
export interface AuthOptions {
  /** Null when the token is unknown, expired, revoked, or its user is inactive or gone. */
  findSessionUser: (token: string) => Promise<SessionUser | null>;
}

export interface ProtectedRoute {
  method: string;
  url: string;
  access: Exclude<Access, 'public'>;
  /** The route's body schema, if it declares one (the bad-body tests aim at these). */
  bodySchema?: unknown;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    /** The signed-in staff member on a staff route; null elsewhere. */
    staffUser: SessionUser | null;
  }
  interface FastifyInstance {
    /** Every staff and superuser route, as registered: the authorization tests iterate this. */
    protectedRoutes: ProtectedRoute[];
    /** The session lookup the auth plugin was handed. */
    findSessionUser: AuthOptions['findSessionUser'];
  }
}

export const SIGN_IN_REQUIRED = 'Please sign in to continue';
export const SESSION_ENDED = 'Your session has ended. Please sign in again.';
export const SUPERUSER_ONLY = 'Only a superuser can do this';
export const PRESENTER_CANNOT = PRESENTER_TEXT.presenterCannot;
export const PRESENTERS_ONLY = PRESENTER_TEXT.presentersOnly;

/** Why a signed-in account may not call a route of this access, or undefined when it may. */
export function refusalFor(access: Exclude<Access, 'public'>, role: Role): string | undefined {
  if (access === 'signed-in') return undefined;
  if (access === 'presenter') return role === 'presenter' ? undefined : PRESENTERS_ONLY;
  if (!isStaffRole(role)) return PRESENTER_CANNOT;
  if (access === 'superuser' && role !== 'superuser') return SUPERUSER_ONLY;
  return undefined;
}

/** The bearer token of a request, if it carries one. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The signed-in staff member behind a request's bearer token, or null (for routes that also accept other credentials). */
export async function authenticateStaff(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<SessionUser | null> {
  const token = bearerToken(request);
  return token ? app.findSessionUser(token) : null;
}

/**
 * DESIGN.md section 6: one check for every staff route. It runs on request, before the body is read,
 * so an anonymous caller cannot make the server parse an upload. Routes under /api/admin/ must say who
 * may call them, so a new admin route cannot be left open by forgetting.
 */
export default fp(
  async function auth(app: FastifyInstance, opts: AuthOptions) {
    const { findSessionUser } = opts;
    const protectedRoutes: ProtectedRoute[] = [];
    app.decorate('protectedRoutes', protectedRoutes);
    app.decorate('findSessionUser', findSessionUser);
    app.decorateRequest('staffUser', null);

    app.addHook('onRoute', (route) => {
      const access = route.config?.access;
      const url = route.url ?? route.path;
      if (!access && url.startsWith('/api/admin/')) {
        throw new Error(
          `Route ${String(route.method)} ${url} must declare config.access ('public', 'signed-in', 'presenter', 'staff' or 'superuser')`,
        );
      }
      if (!access || access === 'public') return;
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        protectedRoutes.push({ method, url, access, bodySchema: route.schema?.body });
      }
    });

    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const access = request.routeOptions.config?.access;
      if (!access || access === 'public') return;
      const token = bearerToken(request);
      if (!token) return reply.code(401).send({ message: SIGN_IN_REQUIRED });
      const user = await findSessionUser(token);
      if (!user) return reply.code(401).send({ message: SESSION_ENDED });
      const refused = refusalFor(access, user.role);
      if (refused) return reply.code(403).send({ message: refused });
      request.staffUser = user;
    });
  },
  { name: 'auth' },
);
