import { toast } from '../components/ui/use-toast';
import { ApiError, serverMessage } from './api-request';

export const NO_CONNECTION = 'The station could not be reached. Please check your connection and try again.';

/** A success toast (SPEC.md section 8's texts). */
export function notifySuccess(title: string, description?: string): void {
  toast({ title, description });
}

/**
 * A failure toast (SPEC.md section 8): the server's message when it gave one, else the fallback;
 * without a fallback, a call that never reached the station says so.
 */
export function notifyFailure(title: string, error: unknown, fallback?: string): void {
  const description =
    serverMessage(error) ?? fallback ?? (error instanceof ApiError ? undefined : NO_CONNECTION);
  toast({ variant: 'destructive', title, description });
}
