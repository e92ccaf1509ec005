import type { z } from 'zod';
import { apiGet, apiRequest, throwIfResNotOk } from '../../../lib/api-request';

/**
 * Staff calls go through here so that any answer of 401 (token expired, revoked, or the account
 * deactivated or deleted) signs the panel out at once, the same way a failed token check does; and a
 * 403 (the role was changed meanwhile) has the panel check the role again.
 */
export interface SessionHandlers {
  onUnauthorized: () => void;
  onForbidden: () => void;
}

let handlers: SessionHandlers | null = null;

export function setSessionHandlers(next: SessionHandlers | null): void {
  handlers = next;
}

/** The status of an error raised by the request helper ('401: {...}'), if it carries one. */
export function errorStatus(error: unknown): number | undefined {
  const match = error instanceof Error ? /^(\d{3}): /.exec(error.message) : null;
  return match ? Number(match[1]) : undefined;
}

/** The server's own message ({ message } in the body), if the error carries one. */
export function serverMessage(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  if (!match) return undefined;
  try {
    const body: unknown = JSON.parse(match[1]!);
    if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') {
      return (body as { message: string }).message;
    }
  } catch {
    // A body that is not JSON (a proxy's error page) is not a message for staff.
  }
  return undefined;
}

function watchForSignOut(error: unknown): never {
  const status = errorStatus(error);
  if (status === 401) handlers?.onUnauthorized();
  if (status === 403) handlers?.onForbidden();
  throw error;
}

/** A staff read, checked against its contract. */
export async function staffGet<T>(url: string, schema: z.ZodType<T>): Promise<T> {
  try {
    return schema.parse(await apiGet<unknown>(url));
  } catch (error) {
    return watchForSignOut(error);
  }
}

/** A staff write; the answer is checked against its contract when one is given. */
export async function staffSend<T = unknown>(
  method: string,
  url: string,
  data?: unknown,
  schema?: z.ZodType<T>,
): Promise<T> {
  try {
    const res = await apiRequest(method, url, data);
    if (!schema) return undefined as T;
    return schema.parse(await res.json());
  } catch (error) {
    return watchForSignOut(error);
  }
}

/** A staff upload (multipart); the browser sets the boundary, the token goes as a bearer header. */
export async function staffUpload<T>(
  url: string,
  form: FormData,
  token: string | null,
  schema: z.ZodType<T>,
): Promise<T> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      body: form,
      credentials: 'include',
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
    await throwIfResNotOk(res);
    return schema.parse(await res.json());
  } catch (error) {
    return watchForSignOut(error);
  }
}

/** A staff download (the subscribers' CSV) as a blob. */
export async function staffDownload(url: string, token: string | null): Promise<Blob> {
  try {
    const res = await fetch(url, {
      credentials: 'include',
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
    await throwIfResNotOk(res);
    return await res.blob();
  } catch (error) {
    return watchForSignOut(error);
  }
}
