import { cn } from '../lib/utils';
import { Badge } from './ui/badge';

/** Marks a programme or featured item that came with a fresh station (sample content) in the staff's lists. */
export function SampleBadge({ className }: { className?: string }) {
  return (
    <Badge
      variant="outline"
      className={cn('border-dashed border-amber-500 bg-amber-50 text-amber-900', className)}
      title="Came with the station as an example; removed with the sample content"
    >
      Sample
    </Badge>
  );
}
