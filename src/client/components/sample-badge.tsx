import { Badge } from './ui/badge';

/** Marks a programme or featured item that came with a fresh station (sample content) in the staff's lists. */
export function SampleBadge() {
  return (
    <Badge
      variant="outline"
      className="border-dashed border-amber-500 bg-amber-50 text-amber-900"
      title="Came with the station as an example; removed with the sample content"
    >
      Sample
    </Badge>
  );
}
