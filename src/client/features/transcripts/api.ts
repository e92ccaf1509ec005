import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { SPEECH_PATH, transcriptSchema, type Transcript } from '../../../common/speech';
import { ApiError, apiGetParsed, apiSend } from '../../lib/api-request';

/** While a transcript is waiting or being made, the screen reads it again this often. */
export const TRANSCRIPT_POLL_MS = 3000;

const transcriptPath = (mediaId: string) => `${SPEECH_PATH}/transcripts/${encodeURIComponent(mediaId)}`;

const unfinished = (transcript: Transcript | null | undefined) =>
  transcript === null || transcript?.status === 'waiting' || transcript?.status === 'working';

/** A library item's transcript; null while it has none yet (not made, or being made again). */
export const transcriptQuery = (mediaId: string) =>
  queryOptions({
    queryKey: [SPEECH_PATH, 'transcripts', mediaId],
    queryFn: async (): Promise<Transcript | null> => {
      try {
        return await apiGetParsed(transcriptPath(mediaId), transcriptSchema);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    staleTime: 0,
    refetchInterval: (query) => (unfinished(query.state.data) ? TRANSCRIPT_POLL_MS : false),
  });

/** PUT: staff's corrected lines; the answer is the transcript as saved. */
export function useSaveTranscript(mediaId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cues: Transcript['cues']) =>
      apiSend('PUT', transcriptPath(mediaId), { cues }, transcriptSchema),
    onSuccess: (saved) => queryClient.setQueryData(transcriptQuery(mediaId).queryKey, saved),
  });
}

/** POST …/redo: made again from the recording (staff's corrections are dropped); none until then. */
export function useTranscribeAgain(mediaId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend('POST', `${transcriptPath(mediaId)}/redo`),
    onSuccess: () => queryClient.setQueryData(transcriptQuery(mediaId).queryKey, null),
  });
}
