import { z } from 'zod';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { mediaListSchema } from '../../../common/library';
import { presenterListSchema, type PresenterListItem } from '../../../common/presenters';
import {
  ONE_OFFS_PATH,
  oneOffListSchema,
  oneOffSchema,
  ONE_OFF_CHECK_PATH,
  overlapCheckSchema,
  PROGRAM_CHECK_PATH,
  programChangeCheckPath,
  PROGRAMS_PATH,
  scheduledProgramSchema,
  UPCOMING_PATH,
  upcomingSchema,
  weekScheduleSchema,
  type OneOffBody,
  type ProgramBody,
  type ProgramPatch,
} from '../../../common/programs';
import { apiGetParsed, apiSend } from '../../lib/api-request';
import { programsTodayQuery } from './api';

/** Every weekly programme, active or not, with the station's time zone and today's date there. */
export const weekScheduleQuery = () =>
  queryOptions({ queryKey: [PROGRAMS_PATH], queryFn: () => apiGetParsed(PROGRAMS_PATH, weekScheduleSchema) });

/** One-off changes from today on (the station lists a year ahead). */
export const oneOffsQuery = () =>
  queryOptions({ queryKey: [ONE_OFFS_PATH], queryFn: () => apiGetParsed(ONE_OFFS_PATH, oneOffListSchema) });

export const useWeekSchedule = () => useQuery(weekScheduleQuery());
export const useOneOffs = () => useQuery(oneOffsQuery());

/** How often the next 24 hours are read again while the tab is open. */
export const UPCOMING_REFETCH_MS = 30_000;
export const UPCOMING_HOURS = 24;

/** The next 24 hours as they will air, item by item, with what the station sees going wrong. */
export const upcomingQuery = () =>
  queryOptions({
    queryKey: [UPCOMING_PATH],
    queryFn: () => apiGetParsed(`${UPCOMING_PATH}?hours=${UPCOMING_HOURS}`, upcomingSchema),
  });

export const useUpcoming = () => useQuery({ ...upcomingQuery(), refetchInterval: UPCOMING_REFETCH_MS });

export const PLAYLISTS_PATH = '/api/admin/playlists';
/** Only what a picker needs of each playlist. */
const playlistOptionsSchema = z.object({
  playlists: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type PlaylistOption = z.infer<typeof playlistOptionsSchema>['playlists'][number];

/**
 * The playlists a programme can air or fall back to. Its own key under the path: the Playlists tab keeps the
 * whole list object under [PLAYLISTS_PATH], and one key holding two shapes breaks whichever tab reads second.
 * A change in the Playlists tab still refreshes this (it invalidates everything under the path).
 */
export const playlistOptionsQuery = () =>
  queryOptions({
    queryKey: [PLAYLISTS_PATH, 'schedule-picker'],
    queryFn: async (): Promise<PlaylistOption[]> =>
      (await apiGetParsed(PLAYLISTS_PATH, playlistOptionsSchema)).playlists,
  });
export const usePlaylistOptions = (enabled = true) => useQuery({ ...playlistOptionsQuery(), enabled });

export const PRESENTERS_PATH = '/api/admin/presenters';
export type PresenterOption = PresenterListItem;

/** Staff accounts of the presenter role: who can be live in a programme. */
export const presenterOptionsQuery = () =>
  queryOptions({
    queryKey: [PRESENTERS_PATH],
    queryFn: () => apiGetParsed(PRESENTERS_PATH, presenterListSchema),
  });
export const usePresenterOptions = (enabled = true) => useQuery({ ...presenterOptionsQuery(), enabled });

export const LIBRARY_PATH = '/api/library';
export const RECORDING_RESULTS = 20;

/** Recordings from the library whose title, artist or album match what staff typed. */
export const recordingSearchQuery = (search: string) =>
  queryOptions({
    queryKey: [LIBRARY_PATH, 'schedule-picker', search],
    queryFn: async () => {
      const query = new URLSearchParams({ search: search.trim(), limit: String(RECORDING_RESULTS) });
      return apiGetParsed(`${LIBRARY_PATH}?${query.toString()}`, mediaListSchema);
    },
    // Other staff upload meanwhile; a new search keeps the last answer on screen until its own arrives.
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
export const useRecordingSearch = (search: string) => useQuery(recordingSearchQuery(search));

/** Any change to the schedule refreshes the week, the one-offs, 'Today's Programs' and the next 24 hours. */
function useScheduleMutation<T, R>(mutationFn: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () =>
      Promise.all(
        [weekScheduleQuery(), oneOffsQuery(), programsTodayQuery(), upcomingQuery()].map(({ queryKey }) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

const programPath = (id: string) => `${PROGRAMS_PATH}/${encodeURIComponent(id)}`;

export const useAddProgram = () =>
  useScheduleMutation((body: ProgramBody) => apiSend('POST', PROGRAMS_PATH, body, scheduledProgramSchema));

export const useUpdateProgram = () =>
  useScheduleMutation(({ id, patch }: { id: string; patch: ProgramPatch }) =>
    apiSend('PATCH', programPath(id), patch, scheduledProgramSchema),
  );

export const useDeleteProgram = () => useScheduleMutation((id: string) => apiSend('DELETE', programPath(id)));

export const useAddOneOff = () =>
  useScheduleMutation((body: OneOffBody) => apiSend('POST', ONE_OFFS_PATH, body, oneOffSchema));

export const useDeleteOneOff = () =>
  useScheduleMutation((id: string) => apiSend('DELETE', `${ONE_OFFS_PATH}/${encodeURIComponent(id)}`));

// Asked before each save (decision 015): what the change would overlap, so staff are asked first.
export const checkNewProgram = (body: ProgramBody) =>
  apiSend('POST', PROGRAM_CHECK_PATH, body, overlapCheckSchema);

export const checkProgramChange = (id: string, patch: ProgramPatch) =>
  apiSend('POST', programChangeCheckPath(id), patch, overlapCheckSchema);

export const checkOneOff = (body: OneOffBody) =>
  apiSend('POST', ONE_OFF_CHECK_PATH, body, overlapCheckSchema);
