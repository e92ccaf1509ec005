import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  featuredItemSchema,
  featuredListSchema,
  uploadImageResponseSchema,
  IMAGE_UPLOAD_FIELD,
  type FeaturedContentBody,
} from '../../../common/featured-content';
import { getAdminToken } from '../../lib/api-request';
import { staffGet, staffSend, staffUpload } from '../admin/api/staff-request';

/** The same list the home page shows (SPEC.md section 7: also used by the admin tab), so one key serves both. */
export const FEATURED_CONTENT_PATH = '/api/featured-content';
export const UPLOAD_IMAGE_PATH = '/api/upload-image';

export const featuredContentQuery = () =>
  queryOptions({
    queryKey: [FEATURED_CONTENT_PATH],
    queryFn: () => staffGet(FEATURED_CONTENT_PATH, featuredListSchema),
  });

export function useFeaturedContentList() {
  return useQuery(featuredContentQuery());
}

const itemPath = (id: string) => `${FEATURED_CONTENT_PATH}/${encodeURIComponent(id)}`;

function useInvalidateFeatured() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: featuredContentQuery().queryKey });
}

export function useAddContent() {
  const invalidate = useInvalidateFeatured();
  return useMutation({
    mutationFn: (body: FeaturedContentBody) =>
      staffSend('POST', FEATURED_CONTENT_PATH, body, featuredItemSchema),
    onSuccess: invalidate,
  });
}

export function useUpdateContent() {
  const invalidate = useInvalidateFeatured();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: FeaturedContentBody }) =>
      staffSend('PUT', itemPath(id), body, featuredItemSchema),
    onSuccess: invalidate,
  });
}

export function useDeleteContent() {
  const invalidate = useInvalidateFeatured();
  return useMutation({
    mutationFn: (id: string) => staffSend('DELETE', itemPath(id), undefined, z.unknown()),
    onSuccess: invalidate,
  });
}

/** POST /api/upload-image, multipart field 'image'; answers the stored image's address. */
export function useUploadImage() {
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append(IMAGE_UPLOAD_FIELD, file);
      return staffUpload(UPLOAD_IMAGE_PATH, form, getAdminToken(), uploadImageResponseSchema);
    },
  });
}
