import { ADMIN_TOKEN_KEY } from '../../common/admin-token';

/** The stored admin token, if staff are signed in in this tab. */
export function getAdminToken(): string | null {
  try {
    return sessionStorage.getItem(ADMIN_TOKEN_KEY);
  } catch {
    return null;
  }
}

/** Staff calls carry the bearer token (DESIGN.md section 6); public calls are unaffected by it. */
function authHeaders(): Record<string, string> {
  const token = getAdminToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** SPEC.md section 8: any non-success answer raises 'status: text' (the status text when the body is empty). */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text();
  throw new Error(`${res.status}: ${text || res.statusText}`);
}

/** SPEC.md section 7: a write with credentials; JSON content type and body only when a payload exists. */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const hasPayload = data !== undefined;
  const res = await fetch(url, {
    method,
    headers: { ...(hasPayload ? { 'Content-Type': 'application/json' } : {}), ...authHeaders() },
    body: hasPayload ? JSON.stringify(data) : undefined,
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

/** SPEC.md section 7: a read is a GET with credentials, parsed as JSON; a 401 may count as no data. */
export async function apiGet<T>(
  url: string,
  options: { on401?: 'returnNull' | 'throw' } = {},
): Promise<T | null> {
  const res = await fetch(url, { credentials: 'include', headers: authHeaders() });
  if (options.on401 === 'returnNull' && res.status === 401) return null;
  await throwIfResNotOk(res);
  return (await res.json()) as T;
}
