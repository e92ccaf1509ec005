import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sourcePasswordResponseSchema, type StationSettings } from '../../../common/admin';
import { audioSettingsSchema, type AudioSettings } from '../../../common/audio-settings';
import {
  deliveryResultSchema,
  notificationSettingsSchema,
  type NotificationSettingsInput,
  type NotificationTarget,
} from '../../../common/notifications';
import { streamSourceStateSchema, type StreamSourceBody } from '../../../common/radio';
import { stationInfoSchema } from '../../../common/station';
import { apiDownload, apiGetParsed, apiSend } from '../../lib/api-request';

export const STATION_SETTINGS_PATH = '/api/admin/station';
export const SOURCE_PASSWORD_PATH = '/api/admin/station/source-password';
export const BACKUP_PATH = '/api/admin/backup';
export const STREAM_SOURCE_PATH = '/api/admin/stream-source';
export const AUDIO_SETTINGS_PATH = '/api/admin/station/audio';
export const NOTIFICATIONS_PATH = '/api/admin/notifications';

export const notificationsQuery = () =>
  queryOptions({
    queryKey: [NOTIFICATIONS_PATH],
    queryFn: () => apiGetParsed(NOTIFICATIONS_PATH, notificationSettingsSchema),
  });

/** Superuser only: where staff are told of what happens on air, and each target's last result. */
export function useNotifications() {
  return useQuery(notificationsQuery());
}

export function useSaveNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationSettingsInput) =>
      apiSend('PUT', NOTIFICATIONS_PATH, body, notificationSettingsSchema),
    onSuccess: (saved) => queryClient.setQueryData(notificationsQuery().queryKey, saved),
  });
}

/** Sends a test message to one target with its saved settings; its result becomes the target's last. */
export function useSendTestNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: NotificationTarget) =>
      apiSend('POST', `${NOTIFICATIONS_PATH}/test/${target}`, undefined, deliveryResultSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsQuery().queryKey }),
  });
}

export const streamSourceQuery = () =>
  queryOptions({
    queryKey: [STREAM_SOURCE_PATH],
    queryFn: () => apiGetParsed(STREAM_SOURCE_PATH, streamSourceStateSchema),
  });

/**
 * Superuser only: the built-in broadcaster (null) or a station elsewhere, on air as soon as it is saved, and
 * whether that station may be on a private network.
 */
export function useStreamSource() {
  return useQuery(streamSourceQuery());
}

export function useSaveStreamSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StreamSourceBody) => apiSend('PUT', STREAM_SOURCE_PATH, body, streamSourceStateSchema),
    onSuccess: (saved) => queryClient.setQueryData(streamSourceQuery().queryKey, saved),
  });
}

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

export const audioSettingsQuery = () =>
  queryOptions({
    queryKey: [AUDIO_SETTINGS_PATH],
    queryFn: () => apiGetParsed(AUDIO_SETTINGS_PATH, audioSettingsSchema),
  });

/** Superuser only: loudness target, true-peak ceiling, crossfade and the stream bitrates that are on. */
export function useAudioSettings() {
  return useQuery(audioSettingsQuery());
}

export function useSaveAudioSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AudioSettings) => apiSend('PUT', AUDIO_SETTINGS_PATH, body, audioSettingsSchema),
    onSuccess: (saved) => queryClient.setQueryData(audioSettingsQuery().queryKey, saved),
  });
}

/** A new live-input password; the old one stops working at once. */
export function useRotateSourcePassword() {
  return useMutation({
    mutationFn: () => apiSend('POST', SOURCE_PASSWORD_PATH, undefined, sourcePasswordResponseSchema),
  });
}

/** Superuser only: the whole station (database and uploads) as one archive, fetched with the bearer token. */
export function useDownloadBackup() {
  return useMutation({
    mutationFn: async () => {
      const blob = await apiDownload(BACKUP_PATH);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `station-backup-${new Date().toISOString().slice(0, 10)}.tar.gz`;
      document.body.append(link);
      link.click();
      link.remove();
      // Let the download start before the address is released.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    },
  });
}
