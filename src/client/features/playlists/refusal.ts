import { serverMessage } from '../../lib/api-request';
import { NO_CONNECTION } from '../../lib/notify';

/** Why a call failed, for staff: the station's own words, that it was not reached, else the fallback. */
export function whyRefused(error: unknown, fallback: string): string {
  return serverMessage(error) ?? (error instanceof TypeError ? NO_CONNECTION : fallback);
}
