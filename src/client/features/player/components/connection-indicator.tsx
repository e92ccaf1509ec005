import Wifi from 'lucide-react/icons/wifi';
import WifiOff from 'lucide-react/icons/wifi-off';
import { CONNECTION_LABELS, type ConnectionStatus, type LineQuality } from '../../../../common/player';
import { cn } from '../../../lib/utils';

const COLORS = {
  red: 'bg-red-600 text-white',
  // White on emerald-500 reads at 2.5:1; emerald-700 keeps the green at 5.5:1.
  green: 'bg-emerald-700 text-white',
  yellow: 'bg-amber-300 text-blue-950',
} as const;

function Badge({ status }: { status: ConnectionStatus }) {
  const { label, color } = CONNECTION_LABELS[status];
  return (
    <span
      data-status={status}
      data-shown-when={status === 'offline' ? 'offline' : 'online'}
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold',
        COLORS[color],
      )}
    >
      {status === 'offline' ? (
        <WifiOff className="size-3.5" aria-hidden />
      ) : (
        <Wifi className="size-3.5" aria-hidden />
      )}
      {label}
    </span>
  );
}

/**
 * Red 'Offline' while the browser is offline, else green 'High Speed' or yellow 'Slow Connection' as the
 * probe found the line. Both are on the page and the browser's own state shows one (lib/online-mark.ts):
 * offline and online are followed at once, also before React has taken the page over, whatever the probe
 * is doing. One live region holds both, so a screen reader hears the change.
 */
export function ConnectionIndicator({ quality }: { quality: LineQuality }) {
  return (
    <span role="status" className="inline-flex">
      <Badge status="offline" />
      <Badge status={quality} />
    </span>
  );
}
