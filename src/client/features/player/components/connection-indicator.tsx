import Wifi from 'lucide-react/icons/wifi';
import WifiOff from 'lucide-react/icons/wifi-off';
import { CONNECTION_LABELS, type ConnectionStatus } from '../../../../common/player';
import { cn } from '../../../lib/utils';

const COLORS = {
  red: 'bg-red-600/90 text-white',
  green: 'bg-emerald-500/90 text-white',
  yellow: 'bg-amber-300 text-blue-950',
} as const;

/** Red 'Offline', green 'High Speed' or yellow 'Slow Connection'. */
export function ConnectionIndicator({ status }: { status: ConnectionStatus }) {
  const { label, color } = CONNECTION_LABELS[status];
  return (
    <span
      role="status"
      data-status={status}
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
