import type { CreateClipBody, CreatedClip } from '../../../common/clips';
import { apiRequest } from '../../lib/api-request';

/** Asks the server to cut the seconds the listener just heard from the broadcaster's recent audio. */
export async function createServerClip(body: CreateClipBody): Promise<CreatedClip> {
  const res = await apiRequest('POST', '/api/clips', body);
  return (await res.json()) as CreatedClip;
}

/** Counts a share of a server clip. */
export async function countClipShare(id: string): Promise<void> {
  await apiRequest('POST', `/api/clips/${encodeURIComponent(id)}/share`);
}
