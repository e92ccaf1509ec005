import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  NEWSLETTERS_PATH,
  newsletterDetailSchema,
  newsletterListSchema,
  newsletterPreviewSchema,
  type NewsletterDraft,
} from '../../../common/newsletters';
import { IMAGE_UPLOAD_FIELD, uploadImageResponseSchema } from '../../../common/featured-content';
import { apiGetParsed, apiSend, apiUpload } from '../../lib/api-request';

/** While one is sending, its progress is asked for every two seconds. */
const PROGRESS_POLL_MS = 2000;

export const newslettersQuery = () =>
  queryOptions({
    queryKey: [NEWSLETTERS_PATH],
    queryFn: () => apiGetParsed(NEWSLETTERS_PATH, newsletterListSchema),
    refetchInterval: (query) =>
      query.state.data?.newsletters.some((n) => n.status === 'sending') ? PROGRESS_POLL_MS : false,
  });

export const useNewsletters = () => useQuery(newslettersQuery());

export const newsletterQuery = (id: string) =>
  queryOptions({
    queryKey: [NEWSLETTERS_PATH, id],
    queryFn: () => apiGetParsed(`${NEWSLETTERS_PATH}/${encodeURIComponent(id)}`, newsletterDetailSchema),
  });

export const useNewsletter = (id: string) => useQuery(newsletterQuery(id));

export function usePreviewNewsletter() {
  return useMutation({
    mutationFn: (draft: NewsletterDraft) =>
      apiSend('POST', `${NEWSLETTERS_PATH}/preview`, draft, newsletterPreviewSchema),
  });
}

export function useSendTestNewsletter() {
  return useMutation({
    mutationFn: (body: NewsletterDraft & { to: string }) =>
      apiSend('POST', `${NEWSLETTERS_PATH}/test`, body, z.object({ message: z.string() })),
  });
}

export function useSendNewsletter() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewsletterDraft & { perSecond: number }) =>
      apiSend('POST', NEWSLETTERS_PATH, body, z.object({ id: z.string() })),
    onSuccess: () => client.invalidateQueries({ queryKey: [NEWSLETTERS_PATH] }),
  });
}

/** The picture, stored by the station as the Content tab's pictures are. */
export function useUploadPicture() {
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append(IMAGE_UPLOAD_FIELD, file);
      return apiUpload('/api/upload-image', form, uploadImageResponseSchema);
    },
  });
}
