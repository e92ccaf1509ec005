import { CONTENT_TYPES, type ContentType } from '../../../../common/featured-content';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';

const TYPE_LABELS: Record<ContentType, string> = {
  sermon: 'Sermon',
  devotion: 'Devotion',
  music: 'Music',
  announcement: 'Announcement',
};

export const contentTypeLabel = (type: string) => TYPE_LABELS[type as ContentType] ?? type;

/** SPEC.md section 9: content types sermon, devotion, music, announcement. */
export function ContentTypeSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (type: ContentType) => void;
}) {
  return (
    <Select value={value} onValueChange={(next) => onChange(next as ContentType)}>
      <SelectTrigger id={id} aria-label="Type">
        <SelectValue placeholder="Choose a type" />
      </SelectTrigger>
      <SelectContent>
        {CONTENT_TYPES.map((type) => (
          <SelectItem key={type} value={type}>
            {TYPE_LABELS[type]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
