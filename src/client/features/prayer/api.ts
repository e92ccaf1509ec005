import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../lib/api-request';

export const PRAYER_REQUESTS_PATH = '/api/prayer-requests';

/** SPEC.md section 3: name optional, trimmed and omitted when empty; always sent as private (the text 'true'). */
export function prayerPayload(request: string, name: string) {
  const trimmedName = name.trim();
  return { ...(trimmedName ? { name: trimmedName } : {}), request: request.trim(), isPrivate: 'true' };
}

/** SPEC.md section 7: on success the prayer request list is reloaded (the staff inbox, when it is open). */
export function useSubmitPrayerRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { request: string; name: string }) =>
      apiSend('POST', PRAYER_REQUESTS_PATH, prayerPayload(input.request, input.name)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [PRAYER_REQUESTS_PATH] }),
  });
}
