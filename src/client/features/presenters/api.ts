import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  myBroadcastSchema,
  presenterSourcePasswordSchema,
  type EncoderSettings,
} from '../../../common/presenters';
import { apiGetParsed, apiSend } from '../../lib/api-request';

export const MY_BROADCAST_PATH = '/api/admin/presenters/me';
export const MY_SOURCE_PASSWORD_PATH = '/api/admin/presenters/me/source-password';

export const myBroadcastQuery = () =>
  queryOptions({
    queryKey: [MY_BROADCAST_PATH],
    queryFn: () => apiGetParsed(MY_BROADCAST_PATH, myBroadcastSchema),
  });

/** A presenter's own area: their encoder's settings and their programmes ahead. */
export function useMyBroadcast() {
  return useQuery(myBroadcastQuery());
}

/** A new source password for the signed-in presenter; the old one stops working at once. */
export function useRotateMySourcePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend('POST', MY_SOURCE_PASSWORD_PATH, undefined, presenterSourcePasswordSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: myBroadcastQuery().queryKey }),
  });
}

/** The address ffmpeg or Liquidsoap take: icecast://user:password@server:port/mount. */
export const encoderAddress = (encoder: EncoderSettings, password: string) =>
  `icecast://${encodeURIComponent(encoder.username)}:${encodeURIComponent(password)}@${
    encoder.server.includes(':') ? `[${encoder.server}]` : encoder.server
  }:${encoder.port}${encoder.mount}`;
