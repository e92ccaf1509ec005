import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sourcePasswordResponseSchema, type StationSettings } from '../../../common/admin';
import { stationInfoSchema } from '../../../common/station';
import { apiGetParsed, apiSend } from '../../lib/api-request';

export const STATION_SETTINGS_PATH = '/api/admin/station';
export const SOURCE_PASSWORD_PATH = '/api/admin/station/source-password';

export const stationSettingsQuery = () =>
  queryOptions({
    queryKey: [STATION_SETTINGS_PATH],
    queryFn: () => apiGetParsed(STATION_SETTINGS_PATH, stationInfoSchema),
  });

/** Superuser only: what every page shows about the station. */
export function useStationSettings() {
  return useQuery(stationSettingsQuery());
}

export function useSaveStationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StationSettings) => apiSend('PUT', STATION_SETTINGS_PATH, body, stationInfoSchema),
    onSuccess: (saved) => queryClient.setQueryData(stationSettingsQuery().queryKey, saved),
  });
}

/** A new live-input password; the old one stops working at once. */
export function useRotateSourcePassword() {
  return useMutation({
    mutationFn: () => apiSend('POST', SOURCE_PASSWORD_PATH, undefined, sourcePasswordResponseSchema),
  });
}
