import { queryOptions } from '@tanstack/react-query';
import { PROGRAMS_PATH, weekScheduleSchema } from '../../../../common/programs';
import {
  SPEECH_PATH,
  speechSettingsSchema,
  speechStatusSchema,
  type SpeechSettings,
} from '../../../../common/speech';
import { apiGetParsed, apiSend } from '../../../lib/api-request';

export const speechSettingsQuery = () =>
  queryOptions({
    queryKey: [SPEECH_PATH, 'settings'],
    queryFn: () => apiGetParsed(`${SPEECH_PATH}/settings`, speechSettingsSchema),
  });

/** How the recogniser is doing, every 2 s while the tab is open. */
export const speechStatusQuery = () =>
  queryOptions({
    queryKey: [SPEECH_PATH, 'status'],
    queryFn: () => apiGetParsed(`${SPEECH_PATH}/status`, speechStatusSchema),
    refetchInterval: 2000,
  });

/** The week's programmes that go out live: the ones captions from speech can be turned on for. */
export const livePrograms = () =>
  queryOptions({
    queryKey: [PROGRAMS_PATH, 'live'],
    queryFn: async () =>
      (await apiGetParsed(PROGRAMS_PATH, weekScheduleSchema)).programs.filter((p) => p.airs?.kind === 'live'),
  });

export const saveSpeechSettings = (body: SpeechSettings) =>
  apiSend('PUT', `${SPEECH_PATH}/settings`, body, speechSettingsSchema);
