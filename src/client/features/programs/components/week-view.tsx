import Pencil from 'lucide-react/icons/pencil';
import Plus from 'lucide-react/icons/plus';
import Trash2 from 'lucide-react/icons/trash-2';
import TriangleAlert from 'lucide-react/icons/triangle-alert';
import {
  DAYS_OF_WEEK,
  dayLabel,
  timeRange,
  type DayOfWeek,
  type ScheduledProgram,
} from '../../../../common/programs';
import { SampleBadge } from '../../../components/sample-badge';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Switch } from '../../../components/ui/switch';
import { getStation } from '../../../lib/station';
import { cn } from '../../../lib/utils';
import { usePlaylistOptions, usePresenterOptions } from '../staff-api';
import { airsSummary } from './airs-draft';

export interface WeekViewActions {
  onAdd: (day: DayOfWeek) => void;
  onEdit: (program: ScheduledProgram) => void;
  onToggle: (program: ScheduledProgram, active: boolean) => void;
  onDelete: (program: ScheduledProgram) => void;
}

/** The week at a glance: seven columns on a wide screen, one day under another on a phone. */
export function WeekView({
  programs,
  today,
  ...actions
}: { programs: ScheduledProgram[]; today?: DayOfWeek } & WeekViewActions) {
  const titles = new Map(programs.map((p) => [p.id, p.title]));
  // Names for what programmes air, asked for only when a programme airs a playlist or a presenter.
  const playlists = usePlaylistOptions(programs.some((p) => p.airs.kind === 'playlist'));
  const presenters = usePresenterOptions(programs.some((p) => p.airs.kind === 'live'));
  const airs = (program: ScheduledProgram) => airsSummary(program.airs, playlists.data, presenters.data);
  return (
    <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-7 xl:gap-2">
      {DAYS_OF_WEEK.map((day) => {
        const ofDay = programs.filter((p) => p.dayOfWeek === day);
        return (
          <section
            key={day}
            aria-labelledby={`schedule-${day}`}
            className={cn(
              'flex min-w-0 flex-col gap-2 rounded-lg border border-slate-200 bg-slate-50 p-2',
              day === today && 'border-amber-300 bg-amber-50/60',
            )}
          >
            <h4
              id={`schedule-${day}`}
              className="flex flex-wrap items-center gap-1 text-sm font-semibold text-blue-950"
            >
              {dayLabel(day)}
              {day === today && <Badge variant="gold">Today</Badge>}
            </h4>
            {ofDay.length === 0 ? (
              <p className="text-xs text-slate-500">Nothing scheduled</p>
            ) : (
              <ul className="space-y-2" aria-label={`${dayLabel(day)} programmes`}>
                {ofDay.map((program) => (
                  <WeekEntry
                    key={program.id}
                    program={program}
                    titles={titles}
                    airs={airs(program)}
                    {...actions}
                  />
                ))}
              </ul>
            )}
            <Button
              variant="ghost"
              size="sm"
              className="mt-auto h-8 px-2 text-xs"
              onClick={() => actions.onAdd(day)}
            >
              <Plus aria-hidden="true" />
              Add<span className="sr-only">{` a programme on ${dayLabel(day)}`}</span>
            </Button>
          </section>
        );
      })}
    </div>
  );
}

function WeekEntry({
  program,
  titles,
  airs,
  onEdit,
  onToggle,
  onDelete,
}: { program: ScheduledProgram; titles: Map<string, string>; airs: string | null } & Omit<
  WeekViewActions,
  'onAdd'
>) {
  const overlapping = program.overlapsWith.map((id) => titles.get(id) ?? 'another programme');
  return (
    <li
      data-testid="schedule-entry"
      className={cn(
        'rounded-md border bg-white p-2 text-xs shadow-sm',
        program.isActive ? 'border-slate-200' : 'border-dashed border-slate-300 opacity-60',
        overlapping.length > 0 && 'border-red-300',
      )}
    >
      <p className="font-medium tabular-nums text-slate-700">
        {timeRange(program.startTime, program.duration)}
      </p>
      <p className="break-words text-sm font-semibold leading-snug text-slate-900">{program.title}</p>
      <p className="break-words text-slate-600">{program.speaker ?? getStation().name}</p>
      {program.ministryFocus && <p className="break-words text-amber-700">{program.ministryFocus}</p>}
      {airs && <p className="break-words font-medium text-blue-900">{airs}</p>}
      {(overlapping.length > 0 || !program.isActive || program.sample) && (
        <div className="mt-1 flex flex-wrap gap-1">
          {program.sample && <SampleBadge />}
          {overlapping.length > 0 && (
            <Badge variant="live" title={`Overlaps ${overlapping.join(', ')}`}>
              <TriangleAlert className="mr-1 h-3 w-3" aria-hidden="true" />
              Overlaps<span className="sr-only">{` ${overlapping.join(', ')}`}</span>
            </Badge>
          )}
          {!program.isActive && <Badge variant="secondary">Inactive</Badge>}
        </div>
      )}
      <div className="mt-2 flex flex-wrap items-center gap-1 xl:gap-0.5">
        <Switch
          checked={program.isActive}
          onCheckedChange={(active) => onToggle(program, active)}
          aria-label={`${program.title} on the air every week`}
          className="h-5 w-9 [&>span]:h-4 [&>span]:w-4 [&>span[data-state=checked]]:translate-x-4"
        />
        <Button
          variant="ghost"
          size="icon"
          className="h-9 w-9 xl:h-6 xl:w-6"
          onClick={() => onEdit(program)}
          aria-label={`Edit ${program.title}`}
        >
          <Pencil aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="h-9 w-9 text-red-700 hover:bg-red-50 xl:h-6 xl:w-6"
          onClick={() => onDelete(program)}
          aria-label={`Delete ${program.title}`}
        >
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
    </li>
  );
}
