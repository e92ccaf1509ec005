import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { mediaListSchema } from '../../../common/library';
import {
  playlistDetailSchema,
  playlistListSchema,
  type PlaylistCreate,
  type PlaylistUpdate,
} from '../../../common/playlists';
import { apiGetParsed, apiSend } from '../../lib/api-request';

export const PLAYLISTS_PATH = '/api/admin/playlists';
export const playlistPath = (id: string) => `${PLAYLISTS_PATH}/${encodeURIComponent(id)}`;
/** Library items offered at once when adding to a playlist. */
export const SEARCH_LIMIT = 20;

export const playlistListQuery = () =>
  queryOptions({
    queryKey: [PLAYLISTS_PATH],
    queryFn: () => apiGetParsed(PLAYLISTS_PATH, playlistListSchema),
    staleTime: 0,
  });

export const playlistQuery = (id: string) =>
  queryOptions({
    queryKey: [PLAYLISTS_PATH, id],
    queryFn: () => apiGetParsed(playlistPath(id), playlistDetailSchema),
    staleTime: 0,
  });

export const usePlaylists = () => useQuery(playlistListQuery());
export const usePlaylist = (id: string) => useQuery(playlistQuery(id));

/** The library's items matching a search, as the Library tab finds them (GET /api/library). */
export function useLibrarySearch(search: string) {
  const query = new URLSearchParams({ limit: String(SEARCH_LIMIT) });
  if (search.trim()) query.set('search', search.trim());
  return useQuery({
    queryKey: ['/api/library', 'playlist-search', search.trim()],
    queryFn: () => apiGetParsed(`/api/library?${query.toString()}`, mediaListSchema),
    placeholderData: keepPreviousData,
  });
}

function useInvalidatePlaylists() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [PLAYLISTS_PATH] });
}

export function useCreatePlaylist() {
  const invalidate = useInvalidatePlaylists();
  return useMutation({
    mutationFn: (body: PlaylistCreate) => apiSend('POST', PLAYLISTS_PATH, body, playlistDetailSchema),
    onSuccess: invalidate,
  });
}

export function useUpdatePlaylist() {
  const invalidate = useInvalidatePlaylists();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: PlaylistUpdate }) =>
      apiSend('PATCH', playlistPath(id), body, playlistDetailSchema),
    onSuccess: invalidate,
  });
}

/** PUT /api/admin/playlists/:id/items: the whole list, in playing order. */
export function useSetPlaylistItems() {
  const invalidate = useInvalidatePlaylists();
  return useMutation({
    mutationFn: ({ id, mediaIds }: { id: string; mediaIds: string[] }) =>
      apiSend('PUT', `${playlistPath(id)}/items`, { media_ids: mediaIds }, playlistDetailSchema),
    onSuccess: invalidate,
  });
}

export function useDeletePlaylist() {
  const invalidate = useInvalidatePlaylists();
  return useMutation({
    mutationFn: (id: string) => apiSend('DELETE', playlistPath(id)),
    onSuccess: invalidate,
  });
}
