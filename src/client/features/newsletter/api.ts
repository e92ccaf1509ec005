import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../lib/api-request';

export const EMAIL_SUBSCRIBE_PATH = '/api/email-subscribe';

// A plain check keeps zod out of the home page's first script; the server validates again.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(email: string): boolean {
  return EMAIL.test(email.trim());
}

export function useSubscribe() {
  return useMutation({
    mutationFn: (input: { email: string; name: string }) => {
      const name = input.name.trim();
      return apiSend('POST', EMAIL_SUBSCRIBE_PATH, { email: input.email.trim(), ...(name ? { name } : {}) });
    },
  });
}
