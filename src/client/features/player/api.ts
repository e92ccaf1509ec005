import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  CURRENT_TRACK_REFETCH_MS,
  CURRENT_TRACK_RETRIES,
  STREAM_URL_GC_MS,
  STREAM_URL_STALE_MS,
} from '../../../common/player';
import type { NowPlaying, StreamInfo } from '../../../common/radio';
import { apiGet } from '../../lib/api-request';

export const RADIO_CURRENT_PATH = '/api/radio/current';
export const RADIO_STREAM_URL_PATH = '/api/radio/stream-url';

async function readNowPlaying(): Promise<NowPlaying> {
  const data = await apiGet<NowPlaying>(RADIO_CURRENT_PATH);
  if (!data || typeof data !== 'object' || !data.current_track)
    throw new Error(`Unexpected answer from ${RADIO_CURRENT_PATH}`);
  return data;
}

async function readStreamInfo(): Promise<StreamInfo> {
  const data = await apiGet<StreamInfo>(RADIO_STREAM_URL_PATH);
  if (!data || typeof data.streamUrl !== 'string')
    throw new Error(`Unexpected answer from ${RADIO_STREAM_URL_PATH}`);
  return data;
}

export const currentTrackQuery = () =>
  queryOptions({ queryKey: [RADIO_CURRENT_PATH], queryFn: readNowPlaying });

/** SPEC.md section 7: the stream address is cached 5 min and kept 10 min. */
export const streamUrlQuery = () =>
  queryOptions({
    queryKey: [RADIO_STREAM_URL_PATH],
    queryFn: readStreamInfo,
    staleTime: STREAM_URL_STALE_MS,
    gcTime: STREAM_URL_GC_MS,
  });

/**
 * The current track: on load, every 15 s (always stale), on focus, with 3 retries; while the listener
 * listens, the ws push updates it at once.
 */
export function useCurrentTrack(listening = false) {
  const query = useQuery({
    ...currentTrackQuery(),
    staleTime: 0,
    refetchInterval: CURRENT_TRACK_REFETCH_MS,
    refetchOnWindowFocus: 'always',
    refetchOnMount: 'always',
    retry: CURRENT_TRACK_RETRIES,
  });
  useNowPlayingPush(listening);
  return query;
}

export function useStreamUrl() {
  return useQuery({ ...streamUrlQuery(), refetchOnMount: 'always' });
}

/**
 * The `now_playing` push replaces the cached current track as soon as it arrives. The socket client and
 * its message schemas load once the listener starts listening, keeping them out of the first page load.
 */
function useNowPlayingPush(enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    let unsubscribe: (() => void) | undefined;
    let cancelled = false;
    void import('../../lib/ws-client').then(({ getWsClient }) => {
      if (cancelled) return;
      unsubscribe = getWsClient().onMessage((message) => {
        if (message.type === 'now_playing')
          queryClient.setQueryData(currentTrackQuery().queryKey, message.data);
      });
    });
    return () => {
      cancelled = true;
      unsubscribe?.();
    };
  }, [queryClient, enabled]);
}
