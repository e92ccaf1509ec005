import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

/** Any change to the schedule refreshes the week, the one-offs and 'Today's Programs'. */
function useScheduleMutation<T, R>(mutationFn: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () =>
      Promise.all(
        [weekScheduleQuery(), oneOffsQuery(), programsTodayQuery()].map(({ queryKey }) =>
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
