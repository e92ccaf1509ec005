import CalendarDays from 'lucide-react/icons/calendar-days';
import Captions from 'lucide-react/icons/captions';
import Play from 'lucide-react/icons/play';
import Radio from 'lucide-react/icons/radio';
import Square from 'lucide-react/icons/square';
import { useEffect, useState } from 'react';
import { PLAYER_TEXT } from '../../../../common/player';
import { Button } from '../../../components/ui/button';
import { Switch } from '../../../components/ui/switch';
import { getStation } from '../../../lib/station';
import { useBrowserValue } from '../../../lib/use-browser-value';
import { cn } from '../../../lib/utils';
import { useCurrentTrack, useStreamUrl } from '../api';
import type { AudioPlayer } from '../audio-player';
import { displayedTrack } from '../displayed-track';
import { updateMediaSession } from '../media-session';
import { getPlayer, usePlayerState } from '../player-store';
import { isIOS } from '../stream-engine';
import { useAutoplayHint } from '../use-autoplay-hint';
import { useConnectionStatus, useNetworkQuality } from '../use-connection-status';
import { useStreamClock } from '../use-stream-clock';
import { useSubtitlesEnabled } from '../use-subtitles-enabled';
import { ConnectionIndicator } from './connection-indicator';
import { VolumeControl } from './volume-control';

/** SPEC.md section 2 (1): the player banner at the top of the home page. */
export function PlayerBanner({
  player = getPlayer(),
  autoplay = false,
}: {
  player?: AudioPlayer;
  autoplay?: boolean;
}) {
  const station = getStation();
  const state = usePlayerState(player);
  const [listening, setListening] = useState(false);
  if (state.wanted && !listening) setListening(true);
  const { data: nowPlaying, dataUpdatedAt } = useCurrentTrack(listening);
  // Each answer from the station (polled every 15 s) shows it is reachable: a listener whose reconnects
  // ran out while it was down (a restart, a long outage) is brought back.
  useEffect(() => {
    if (dataUpdatedAt && player.hasGivenUp) player.resumeIfWanted();
  }, [player, dataUpdatedAt]);
  const { data: streamInfo } = useStreamUrl();
  const quality = useConnectionStatus(player);
  const [subtitles, setSubtitles] = useSubtitlesEnabled();
  const ios = useBrowserValue(isIOS, false);
  useNetworkQuality(player);

  const streamUrl = streamInfo?.streamUrl;
  useEffect(() => {
    if (!streamUrl) return;
    player.setStreamUrl(streamUrl);
    if (autoplay) player.tryAutoplay();
  }, [player, streamUrl, autoplay]);

  const track = displayedTrack(nowPlaying, state.heardTitle, state.playing);
  useEffect(() => {
    updateMediaSession(
      { title: track?.title, artist: track?.artist, artworkUrl: track?.artworkUrl },
      station.name,
      {
        play: () => player.play(),
        pause: () => void player.stop(),
      },
    );
  }, [player, station.name, track?.title, track?.artist, track?.artworkUrl]);

  // When play comes near: fetch the player code and warm the stream's connection (a HEAD, never counted
  // as a listener; play's request reuses it). Not on page load: most visitors never press play.
  const prepare = () => player.prepare();
  // The second of the broadcast being heard, on the banner for tools and checks (subtitles read the hook).
  const heardClock = useStreamClock(1000, player);

  const hint = useAutoplayHint(Boolean(streamUrl), state.playing);
  const on = state.playing;
  const percent = Math.round(state.volume * 100);

  return (
    <section
      aria-label="Live player"
      className="overflow-hidden rounded-2xl bg-gradient-to-br from-blue-950 via-blue-900 to-blue-800 text-white shadow-xl"

      data-stream-clock={heardClock === null ? undefined : heardClock.toFixed(1)}
    >
      <div className="flex flex-col gap-6 p-6 sm:p-8">
        <div className="flex flex-wrap items-center gap-3">
          <span className="inline-flex items-center gap-2 rounded-full bg-red-600 px-3 py-1 text-xs font-bold uppercase tracking-wide">
            <span className="size-2 animate-pulse rounded-full bg-white" aria-hidden />
            {PLAYER_TEXT.liveNow}
          </span>
          <ConnectionIndicator quality={quality} />
        </div>

        <div className="flex flex-col gap-5 md:flex-row md:items-center">
          <button
            type="button"
            title={on ? PLAYER_TEXT.turnOff : PLAYER_TEXT.turnOn}
            aria-label={on ? PLAYER_TEXT.turnOff : PLAYER_TEXT.turnOn}
            aria-pressed={on}
            data-playing={on}
            onPointerEnter={prepare}
            onFocus={prepare}
            onClick={() => player.toggle()}
            className={cn(
              'flex size-20 shrink-0 items-center justify-center self-center rounded-full shadow-lg ring-4 ring-white/20 transition-colors focus-visible:outline-none focus-visible:ring-amber-400 md:self-auto',
              on ? 'bg-red-600 hover:bg-red-500' : 'bg-emerald-500 hover:bg-emerald-400',
            )}
          >
            {on ? (
              <Square className="size-8 fill-current" aria-hidden />
            ) : (
              <Play className="ml-1 size-9 fill-current" aria-hidden />
            )}
          </button>

          <div className="min-w-0 flex-1 text-center md:text-left">
            <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{station.name} Live</h1>
            {/* Its line is kept while the title loads, so nothing below moves when it arrives. */}
            <p
              className="mt-1 min-h-6 truncate text-blue-100"
              data-testid={track ? 'now-playing' : undefined}
            >
              {track && (
                <>
                  <Radio className="mr-1.5 inline size-4 align-[-2px] text-amber-300" aria-hidden />
                  {track.title}
                  {track.artist ? <span className="text-blue-200"> — {track.artist}</span> : null}
                </>
              )}
            </p>
            <p className="mt-2 min-h-5 text-sm font-medium" aria-live="polite">
              {state.buffering ? (
                <span className="text-amber-200">{PLAYER_TEXT.buffering}</span>
              ) : on ? (
                <span className="text-emerald-300">{PLAYER_TEXT.streaming}</span>
              ) : hint ? (
                <span className="text-blue-100">{PLAYER_TEXT.autoplayHint}</span>
              ) : null}
            </p>
          </div>
        </div>

        <div className="flex flex-col gap-4 border-t border-white/15 pt-5 md:flex-row md:items-center md:justify-between">
          <div className="flex flex-wrap items-center justify-center gap-4 md:justify-start">
            <label className="inline-flex cursor-pointer items-center gap-2 text-sm">
              <Captions className="size-4 text-amber-300" aria-hidden />
              Subtitles
              <Switch
                checked={subtitles}
                onCheckedChange={setSubtitles}
                aria-label="Subtitles"
                className="data-[state=checked]:bg-amber-400 data-[state=unchecked]:bg-white/25"
              />
            </label>
            <Button
              variant="outline"
              size="sm"
              className="border-white/30 bg-white/10 text-white hover:bg-white/20 hover:text-white"
              onClick={() => document.getElementById('programs')?.scrollIntoView({ behavior: 'smooth' })}
            >
              <CalendarDays aria-hidden />
              Program Schedule
            </Button>
          </div>
          <div className="flex justify-center md:justify-end">
            <VolumeControl percent={percent} ios={ios} onChange={(p) => player.setVolume(p / 100)} />
          </div>
        </div>

        <p className="text-center text-xs uppercase tracking-[0.2em] text-blue-200 md:text-left">
          {PLAYER_TEXT.testTransmission}
        </p>
      </div>
    </section>
  );
}
