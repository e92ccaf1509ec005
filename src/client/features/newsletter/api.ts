import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-request';

export const EMAIL_SUBSCRIBE_PATH = '/api/email-subscribe';

// A plain check keeps zod out of the home page's first script; the server validates again.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(email: string): boolean {
  return EMAIL.test(email.trim());
}

export function useSubscribe() {
  return useMutation({
    mutationFn: async (input: { email: string; name: string }): Promise<{ message: string }> => {
      const name = input.name.trim();
      const res = await apiRequest('POST', EMAIL_SUBSCRIBE_PATH, {
        email: input.email.trim(),
        ...(name ? { name } : {}),
      });
      // SPEC.md section 7 answers JSON `{ message }`; an answer without one still counts as subscribed.
      const body = (await res.json().catch(() => ({}))) as { message?: unknown };
      return { message: typeof body.message === 'string' ? body.message : '' };
    },
  });
}
