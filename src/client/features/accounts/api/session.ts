import { queryOptions, useMutation } from '@tanstack/react-query';
import { ADMIN_TOKEN_KEY } from '../../../../common/accounts';
import {
  INVALID_CREDENTIALS,
  loginResponseSchema,
  verifyResponseSchema,
  type LoginBody,
  type StaffUser,
} from '../../../../common/admin';
import { ApiError, apiGet, apiRequest, getAdminToken, serverMessage } from '../../../lib/api-request';

export const VERIFY_PATH = '/api/admin/verify';
export const LOGIN_PATH = '/api/admin/login';
export const LOGOUT_PATH = '/api/admin/logout';

export const LOGIN_FAILED = 'Login failed. Please try again.';

/** SPEC.md section 9: the token lives in session storage under 'adminToken'. */
export function storeAdminToken(token: string): void {
  sessionStorage.setItem(ADMIN_TOKEN_KEY, token);
}

export function removeAdminToken(): void {
  try {
    sessionStorage.removeItem(ADMIN_TOKEN_KEY);
  } catch {
    // Storage unavailable: nothing was stored either.
  }
}

export { getAdminToken };

/**
 * GET /api/admin/verify for one token: the signed-in user with their role, or null when the check
 * fails or errs, in which case the token is removed (SPEC.md section 8).
 */
export const verifyQuery = (token: string | null) =>
  queryOptions({
    queryKey: [VERIFY_PATH, token],
    queryFn: async (): Promise<StaffUser | null> => {
      try {
        return verifyResponseSchema.parse(await apiGet(VERIFY_PATH)).user;
      } catch {
        removeAdminToken();
        return null;
      }
    },
    enabled: token !== null,
  });

/** SPEC.md section 8: the server's message, else 'Invalid credentials'; no answer at all is a failed login. */
export function loginFailureMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return LOGIN_FAILED;
  return serverMessage(error) ?? INVALID_CREDENTIALS;
}

export function useLogin() {
  return useMutation({
    mutationFn: async (body: LoginBody) =>
      loginResponseSchema.parse(await (await apiRequest('POST', LOGIN_PATH, body)).json()),
  });
}

/** POST /api/admin/logout revokes the token on the server; signing out locally does not wait for it. */
export async function logoutOnServer(token: string): Promise<void> {
  try {
    await fetch(LOGOUT_PATH, {
      method: 'POST',
      credentials: 'include',
      headers: { Authorization: `Bearer ${token}` },
    });
  } catch {
    // The token is removed locally whatever the server says; an expired one is already void.
  }
}
