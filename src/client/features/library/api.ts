import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MEDIA_ARTWORK_FIELD,
  MEDIA_UPLOAD_FIELD,
  mediaBulkResultSchema,
  mediaItemSchema,
  mediaListSchema,
  mediaPreviewSchema,
  mediaPublishedSchema,
  type MediaBulkUpdate,
  type MediaItem,
  type MediaKind,
  type MediaList,
  type MediaUpdate,
} from '../../../common/library';
import { apiGetParsed, apiSend, apiUpload, apiUploadWithProgress } from '../../lib/api-request';
import { FEATURED_CONTENT_PATH } from '../featured-content';

export const LIBRARY_PATH = '/api/library';
/** Items on one page of the list. */
export const PAGE_SIZE = 50;
/** While an item is being analysed the list is read again this often, so its loudness shows when measured. */
export const ANALYSIS_POLL_MS = 3000;

export const mediaPath = (id: string) => `${LIBRARY_PATH}/${encodeURIComponent(id)}`;

export interface LibraryFilter {
  search: string;
  kind: MediaKind | '';
  offset: number;
}

export function libraryListUrl({ search, kind, offset }: LibraryFilter): string {
  const query = new URLSearchParams();
  if (search.trim()) query.set('search', search.trim());
  if (kind) query.set('kind', kind);
  query.set('offset', String(offset));
  query.set('limit', String(PAGE_SIZE));
  return `${LIBRARY_PATH}?${query.toString()}`;
}

const analysing = (list: MediaList | undefined) => list?.items.some((item) => item.status === 'analysing');

export const mediaListQuery = (filter: LibraryFilter) =>
  queryOptions({
    queryKey: [LIBRARY_PATH, filter],
    queryFn: () => apiGetParsed(libraryListUrl(filter), mediaListSchema),
    // Other staff change the library too: read afresh whenever the tab opens.
    staleTime: 0,
    refetchInterval: (query) => (analysing(query.state.data) ? ANALYSIS_POLL_MS : false),
    // A new search keeps the last answer on screen until its own arrives.
    placeholderData: keepPreviousData,
  });

export function useMediaList(filter: LibraryFilter) {
  return useQuery(mediaListQuery(filter));
}

export function useInvalidateLibrary() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [LIBRARY_PATH] });
}

/** POST /api/library: one audio file, reporting how much has been sent (0 to 1). */
export function uploadMedia(file: File, onProgress: (fraction: number) => void): Promise<MediaItem> {
  const form = new FormData();
  form.append(MEDIA_UPLOAD_FIELD, file);
  return apiUploadWithProgress(LIBRARY_PATH, form, mediaItemSchema, onProgress);
}

export function useUpdateMedia() {
  const invalidate = useInvalidateLibrary();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: MediaUpdate }) =>
      apiSend('PATCH', mediaPath(id), body, mediaItemSchema),
    onSuccess: invalidate,
  });
}

/** POST /api/library/bulk: the same changes to every item named, all or nothing. */
export function useBulkUpdateMedia() {
  const invalidate = useInvalidateLibrary();
  return useMutation({
    mutationFn: (body: MediaBulkUpdate) =>
      apiSend('POST', `${LIBRARY_PATH}/bulk`, body, mediaBulkResultSchema),
    onSuccess: invalidate,
  });
}

/** DELETE /api/library/:id; refused (409) while a playlist or the schedule uses the item. */
export function useDeleteMedia() {
  const invalidate = useInvalidateLibrary();
  return useMutation({
    mutationFn: (id: string) => apiSend('DELETE', mediaPath(id)),
    onSuccess: invalidate,
  });
}

/** POST /api/library/:id/artwork: an image for the now-playing card and the lock screen. */
export function useUploadArtwork() {
  const invalidate = useInvalidateLibrary();
  return useMutation({
    mutationFn: ({ id, file }: { id: string; file: File }) => {
      const form = new FormData();
      form.append(MEDIA_ARTWORK_FIELD, file);
      return apiUpload(`${mediaPath(id)}/artwork`, form, mediaItemSchema);
    },
    onSuccess: invalidate,
  });
}

/** POST /api/library/:id/preview: a short-lived address the browser's audio element plays. */
export function useMediaPreview() {
  return useMutation({
    mutationFn: (id: string) => apiSend('POST', `${mediaPath(id)}/preview`, undefined, mediaPreviewSchema),
  });
}

/**
 * POST /api/library/:id/publish: a recording (a live programme's draft) becomes a featured sermon and podcast
 * episode; the library and the featured list both change.
 */
export function usePublishMedia() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend('POST', `${mediaPath(id)}/publish`, undefined, mediaPublishedSchema),
    onSuccess: () =>
      Promise.all(
        [LIBRARY_PATH, FEATURED_CONTENT_PATH].map((key) =>
          queryClient.invalidateQueries({ queryKey: [key] }),
        ),
      ),
  });
}
