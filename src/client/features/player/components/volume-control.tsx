import Volume2 from 'lucide-react/icons/volume-2';
import VolumeX from 'lucide-react/icons/volume-x';
import { BANNER_VOLUME, isMuted, PLAYER_TEXT, toggleMute } from '../../../../common/player';
import { Button } from '../../../components/ui/button';

/**
 * SPEC.md section 4 (volume): 0..100 step 1, default 75; mute sets 0, un-mute restores 75; the slider at
 * 0 counts as muted. On iOS the page cannot set the volume, so the listener is told to use the buttons.
 */
export function VolumeControl({
  percent,
  onChange,
  ios,
}: {
  percent: number;
  onChange: (percent: number) => void;
  ios: boolean;
}) {
  if (ios) return <p className="text-sm text-blue-100">{PLAYER_TEXT.iosVolume}</p>;
  const muted = isMuted(percent);
  return (
    <div className="flex w-full max-w-xs items-center gap-3">
      <Button
        variant="ghost"
        size="icon"
        className="shrink-0 text-white hover:bg-white/10 hover:text-white"
        aria-label={muted ? 'Unmute' : 'Mute'}
        title={muted ? 'Unmute' : 'Mute'}
        onClick={() => onChange(toggleMute(percent))}
      >
        {muted ? <VolumeX /> : <Volume2 />}
      </Button>
      {/* A native range: keyboard, touch and screen readers for free, and nothing to measure. */}
      <input
        type="range"
        aria-label="Volume"
        value={percent}
        min={BANNER_VOLUME.min}
        max={BANNER_VOLUME.max}
        step={BANNER_VOLUME.step}
        onChange={(e) => onChange(Number(e.currentTarget.value))}
        className="h-2 w-full cursor-pointer accent-amber-400"
      />
      <span className="w-11 shrink-0 text-right text-sm tabular-nums text-blue-50" data-testid="volume-label">
        {percent}%
      </span>
    </div>
  );
}
