import type { FastifyInstance } from 'fastify';
import type { Role } from '../../common/accounts.js';
import type { Database } from '../db/client.js';
import { createAdminUser, issueSession } from '../features/accounts/service.js';

export { hashToken } from '../features/accounts/service.js';

export const STAFF_PASSWORD = 'psalm-23-shepherd';

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A staff account with an open session, made directly (one argon2 hash, no sign-in). */
export async function addStaff(db: Database, username: string, role: Role, password = STAFF_PASSWORD) {
  const user = await createAdminUser(db, { username, password, role });
  const { token, sessionId } = await issueSession(db, user.id);
  return { id: user.id, username, role, token, sessionId, headers: bearer(token) };
}

/** Another session for an existing account. */
export async function openSession(db: Database, userId: string) {
  const { token } = await issueSession(db, userId);
  return bearer(token);
}

export function signIn(app: FastifyInstance, username: string, password: string, address = '203.0.113.7') {
  return app.inject({
    method: 'POST',
    url: '/api/admin/login',
    headers: { 'x-forwarded-for': address },
    payload: { username, password },
  });
}
