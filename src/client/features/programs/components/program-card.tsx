import Clock from 'lucide-react/icons/clock';
import type { Program } from '../../../../common/programs';
import { Badge } from '../../../components/ui/badge';
import { getStation } from '../../../lib/station';
import { cn } from '../../../lib/utils';

/** SPEC.md section 3: a number is minutes; any other duration is shown as written. */
export function formatDuration(duration: Program['duration']): string {
  return typeof duration === 'number' ? `${duration} min` : duration;
}

/** Current and future programmes look different; those already over are muted. */
function cardStyle(program: Program): string {
  if (program.isCurrent) return 'border-amber-400 bg-amber-50 ring-1 ring-amber-300';
  if (program.isFuture) return 'border-blue-200 bg-white';
  return 'border-slate-200 bg-slate-50 text-slate-600';
}

export function ProgramCard({ program }: { program: Program }) {
  const speaker = program.speaker || getStation().name;
  return (
    <li
      data-kind={program.isCurrent ? 'current' : program.isFuture ? 'future' : 'past'}
      className={cn('rounded-xl border p-4 shadow-sm', cardStyle(program))}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h4 className="font-semibold text-blue-950">{program.title}</h4>
          <p className="text-sm text-slate-700">{speaker}</p>
        </div>
        <Badge variant={program.isCurrent ? 'gold' : program.status === 'SOON' ? 'default' : 'secondary'}>
          {program.status}
        </Badge>
      </div>
      <p className="mt-2 flex items-center gap-1.5 text-sm text-slate-700">
        <Clock className="h-4 w-4 text-amber-600" aria-hidden="true" />
        <span>{program.startTime}</span>
        <span aria-hidden="true">·</span>
        <span>{formatDuration(program.duration)}</span>
      </p>
      {program.ministryFocus && (
        <p className="mt-1 text-xs font-medium uppercase tracking-wide text-amber-700">
          {program.ministryFocus}
        </p>
      )}
      {program.description && <p className="mt-2 text-sm text-slate-700">{program.description}</p>}
    </li>
  );
}
