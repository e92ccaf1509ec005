import type { z } from 'zod';
import { ADMIN_TOKEN_KEY } from '../../common/admin-token';

/**
 * A non-success answer, kept as data (STYLE.md habit 13): `message` is SPEC.md section 8's
 * 'status: text' (the status text when the body is empty); `serverMessage` is the body's own
 * `{ message }` when the server gave one. Nothing reads these back out of a string.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    text: string,
    readonly serverMessage?: string,
  ) {
    super(`${status}: ${text}`);
  }
}

/** The server's own message carried by an error, if it gave one. */
export function serverMessage(error: unknown): string | undefined {
  return error instanceof ApiError ? error.serverMessage : undefined;
}

/** The stored admin token, if staff are signed in in this tab. */
export function getAdminToken(): string | null {
  try {
    return sessionStorage.getItem(ADMIN_TOKEN_KEY);
  } catch {
    return null;
  }
}

/**
 * What a signed-in panel does when any call answers 401 (token expired, revoked, account deactivated
 * or deleted: sign out at once) or 403 (the role changed meanwhile: check it again).
 */
export interface SessionHandlers {
  onUnauthorized: () => void;
  onForbidden: () => void;
}

let sessionHandlers: SessionHandlers | null = null;

export function setSessionHandlers(next: SessionHandlers | null): void {
  sessionHandlers = next;
}

/** Staff calls carry the bearer token (DESIGN.md section 6); public calls are unaffected by it. */
function authHeaders(): Record<string, string> {
  const token = getAdminToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

function messageIn(text: string): string | undefined {
  try {
    const body: unknown = JSON.parse(text);
    const message = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
    return typeof message === 'string' ? message : undefined;
  } catch {
    // A body that is not JSON (a proxy's error page) carries no message for people.
    return undefined;
  }
}

/** SPEC.md section 8: any non-success answer raises 'status: text'. */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text();
  if (res.status === 401) sessionHandlers?.onUnauthorized();
  if (res.status === 403) sessionHandlers?.onForbidden();
  throw new ApiError(res.status, text || res.statusText, messageIn(text));
}

/** The one way the client calls the station: credentials, the bearer token, errors as ApiError. */
async function send(url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, {
    ...init,
    credentials: 'include',
    headers: { ...(init.headers as Record<string, string> | undefined), ...authHeaders() },
  });
  await throwIfResNotOk(res);
  return res;
}

/** SPEC.md section 7: a write with credentials; JSON content type and body only when a payload exists. */
export function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const hasPayload = data !== undefined;
  return send(url, {
    method,
    headers: hasPayload ? { 'Content-Type': 'application/json' } : {},
    body: hasPayload ? JSON.stringify(data) : undefined,
  });
}

/** SPEC.md section 7: a read is a GET with credentials, parsed as JSON; a 401 may count as no data. */
export async function apiGet<T>(
  url: string,
  options: { on401?: 'returnNull' | 'throw' } = {},
): Promise<T | null> {
  if (options.on401 === 'returnNull') {
    const res = await fetch(url, { credentials: 'include', headers: authHeaders() });
    if (res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  }
  return (await (await send(url)).json()) as T;
}

/**
 * A list typed by its contract in src/common, for the home page. Only the array shape is checked at run
 * time: zod's runtime would take a sixth of the home page's script budget.
 */
export async function readList<T>(path: string): Promise<T[]> {
  const data = await apiGet<unknown>(path);
  if (!Array.isArray(data)) throw new Error(`Unexpected answer from ${path}`);
  return data as T[];
}

/** A read checked against its contract in src/common. */
export async function apiGetParsed<T>(url: string, schema: z.ZodType<T>): Promise<T> {
  return schema.parse(await (await send(url)).json());
}

/** A write whose answer is checked against its contract when one is given. */
export async function apiSend<T = unknown>(
  method: string,
  url: string,
  data?: unknown,
  schema?: z.ZodType<T>,
): Promise<T> {
  const res = await apiRequest(method, url, data);
  return schema ? schema.parse(await res.json()) : (undefined as T);
}

/** A multipart upload; the browser sets the boundary. */
export async function apiUpload<T>(url: string, form: FormData, schema: z.ZodType<T>): Promise<T> {
  return schema.parse(await (await send(url, { method: 'POST', body: form })).json());
}

/**
 * A multipart upload that reports how much has been sent (0 to 1): fetch cannot tell upload progress, so
 * this one call uses XMLHttpRequest, with the same token, errors and contract check as the others.
 */
export function apiUploadWithProgress<T>(
  url: string,
  form: FormData,
  schema: z.ZodType<T>,
  onProgress: (fraction: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new TypeError('Failed to fetch'));
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        if (xhr.status === 401) sessionHandlers?.onUnauthorized();
        if (xhr.status === 403) sessionHandlers?.onForbidden();
        reject(new ApiError(xhr.status, xhr.responseText || xhr.statusText, messageIn(xhr.responseText)));
        return;
      }
      try {
        resolve(schema.parse(JSON.parse(xhr.responseText)));
      } catch (error) {
        reject(error as Error);
      }
    };
    xhr.send(form);
  });
}

/** A download (the subscribers' CSV) as a blob. */
export async function apiDownload(url: string): Promise<Blob> {
  return (await send(url)).blob();
}
