import { useIsMutating, useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import {
  AUDIO_UPLOAD_FIELD,
  uploadAudioResponseSchema,
  featuredItemSchema,
  uploadImageResponseSchema,
  IMAGE_UPLOAD_FIELD,
  type FeaturedContentBody,
} from '../../../../common/featured-content';
import { apiSend, apiUpload, apiUploadWithProgress } from '../../../lib/api-request';
import {
  FEATURED_CONTENT_PATH,
  featuredItemPath as itemPath,
  useInvalidateFeatured,
} from './featured-content';

export const UPLOAD_IMAGE_PATH = '/api/upload-image';

export function useAddContent() {
  const invalidate = useInvalidateFeatured();
  return useMutation({
    mutationFn: (body: FeaturedContentBody) =>
      apiSend('POST', FEATURED_CONTENT_PATH, body, featuredItemSchema),
    onSuccess: invalidate,
  });
}

export function useUpdateContent() {
  const invalidate = useInvalidateFeatured();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: FeaturedContentBody }) =>
      apiSend('PUT', itemPath(id), body, featuredItemSchema),
    onSuccess: invalidate,
  });
}

export function useDeleteContent() {
  const invalidate = useInvalidateFeatured();
  return useMutation({
    mutationFn: (id: string) => apiSend('DELETE', itemPath(id), undefined, z.unknown()),
    onSuccess: invalidate,
  });
}

/** One form's uploads (`scope` names the form), so the form waits for them before it is sent. */
const uploadKey = (scope: string) => ['featured-content-upload', scope];

/** Whether a picture or recording is still on its way up for the form `scope`. */
export function useUploading(scope: string) {
  return useIsMutating({ mutationKey: uploadKey(scope) }) > 0;
}

/** POST /api/upload-image, multipart field 'image'; answers the stored image's address. */
export function useUploadImage(scope: string) {
  return useMutation({
    mutationKey: uploadKey(scope),
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append(IMAGE_UPLOAD_FIELD, file);
      return apiUpload(UPLOAD_IMAGE_PATH, form, uploadImageResponseSchema);
    },
  });
}

export const UPLOAD_AUDIO_PATH = '/api/upload-audio';

/** POST /api/upload-audio, multipart field 'audio', reporting progress; answers the stored file's facts. */
export function useUploadAudio(scope: string, onProgress: (fraction: number) => void) {
  return useMutation({
    mutationKey: uploadKey(scope),
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append(AUDIO_UPLOAD_FIELD, file);
      return apiUploadWithProgress(UPLOAD_AUDIO_PATH, form, uploadAudioResponseSchema, onProgress);
    },
  });
}
