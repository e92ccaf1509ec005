import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  subtitleEntryListSchema,
  subtitleLanguageListSchema,
  type CaptionBody,
  captionResultSchema,
} from '../../../../common/subtitles';
import { apiGetParsed, apiSend } from '../../../lib/api-request';

export const SUBTITLES_PATH = '/api/subtitles';

/** SPEC.md section 7: the languages, only while subtitles are enabled. */
export const subtitleLanguagesQuery = () =>
  queryOptions({
    queryKey: [SUBTITLES_PATH, 'languages'],
    queryFn: () => apiGetParsed(`${SUBTITLES_PATH}/languages`, subtitleLanguageListSchema),
  });

/** SPEC.md section 7: GET /api/subtitles with the language as key. */
export const subtitleLinesQuery = (language: string) =>
  queryOptions({
    queryKey: [SUBTITLES_PATH, language],
    queryFn: () => apiGetParsed(`${SUBTITLES_PATH}/${encodeURIComponent(language)}`, subtitleEntryListSchema),
  });

export function useSubtitleLanguages(enabled: boolean) {
  return useQuery({ ...subtitleLanguagesQuery(), enabled });
}

/** A language's recent lines, only while enabled and chosen, refetched every `refetchMs` (false: never). */
export function useSubtitleLines(language: string | null, enabled: boolean, refetchMs: number | false) {
  return useQuery({
    ...subtitleLinesQuery(language ?? ''),
    enabled: enabled && Boolean(language),
    refetchInterval: refetchMs,
  });
}

/** The live captioning call, the same one a captioning feed makes with its key. */
export const sendCaption = (body: CaptionBody) => apiSend('POST', SUBTITLES_PATH, body, captionResultSchema);
