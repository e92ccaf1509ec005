import { timeRange, type OneOff } from '../../../../common/programs';
import { Button } from '../../../components/ui/button';

/** 'Friday 25 December 2026': a calendar date, the same wherever staff are. */
export function longDate(date: string) {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'UTC',
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).formatToParts(new Date(`${date}T00:00:00Z`));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('weekday')} ${part('day')} ${part('month')} ${part('year')}`;
}

/** What a one-off change does, in a line. */
export function describeOneOff(change: OneOff) {
  const when =
    change.startTime && change.duration ? ` (${timeRange(change.startTime, change.duration)})` : '';
  const weekly = change.replaces ? `"${change.replaces.title}"` : 'A weekly programme';
  if (change.kind === 'cancel') return `${weekly} cancelled`;
  if (change.kind === 'replace') return `${weekly} replaced by "${change.title}"${when}`;
  return `Special service: "${change.title}"${when}`;
}

/** Every one-off change from today on, so staff see what is set without hunting for dates. */
export function ComingUp({ oneOffs, onPick }: { oneOffs: OneOff[]; onPick: (date: string) => void }) {
  return (
    <div className="space-y-2">
      <h4 className="text-sm font-semibold text-slate-900">Coming up</h4>
      {oneOffs.length === 0 ? (
        <p className="text-sm text-slate-600">No one-off changes from today on.</p>
      ) : (
        <ul aria-label="One-off changes coming up" className="space-y-1 text-sm">
          {oneOffs.map((change) => (
            <li key={change.id} className="flex flex-wrap items-baseline gap-x-2">
              <Button variant="link" className="h-auto p-0" onClick={() => onPick(change.date)}>
                {longDate(change.date)}
              </Button>
              <span className="text-slate-700">{describeOneOff(change)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
