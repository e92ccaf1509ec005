import Plus from 'lucide-react/icons/plus';
import { useState } from 'react';
import {
  dayOfDate,
  isCalendarDate,
  timeRange,
  type OneOff,
  type ScheduledProgram,
  type WeekSchedule,
} from '../../../../common/programs';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import {
  checkOneOff,
  useAddOneOff,
  useDeleteOneOff,
  usePlaylistOptions,
  usePresenterOptions,
} from '../staff-api';
import { airsSummary } from './airs-draft';
import { ComingUp, longDate } from './coming-up';
import { useOverlapGuard } from './overlap-guard';
import { emptyProgram, ProgramFormDialog, type ProgramFormValues } from './program-form-dialog';

type Editing = { kind: 'add' } | { kind: 'replace'; program: ScheduledProgram } | null;

/** DESIGN.md section 7's one-off dates: cancel or replace a weekly programme on a date, or add a special. */
export function OneOffChanges({ week, oneOffs }: { week: WeekSchedule; oneOffs: OneOff[] }) {
  const [date, setDate] = useState(week.today);
  const [editing, setEditing] = useState<Editing>(null);
  const add = useAddOneOff();
  const remove = useDeleteOneOff();
  const { save, dialog } = useOverlapGuard();
  const valid = isCalendarDate(date) && date >= week.today;
  const day = valid ? dayOfDate(date) : undefined;
  const onDate = oneOffs.filter((o) => o.date === date);
  const weekly = week.programs.filter((p) => p.dayOfWeek === day && p.isActive);
  const specials = onDate.filter((o) => o.kind === 'add');
  // Names for what the date's one-off changes air, asked for only when one airs a playlist or presenter.
  const playlists = usePlaylistOptions(onDate.some((o) => o.airs?.kind === 'playlist'));
  const presenters = usePresenterOptions(onDate.some((o) => o.airs?.kind === 'live'));
  const airsLine = (change: OneOff) => {
    const line = airsSummary(change.airs, playlists.data, presenters.data);
    return line && <p className="text-blue-900">{line}</p>;
  };

  const cancel = (program: ScheduledProgram) =>
    void save({
      attempt: () => add.mutateAsync({ kind: 'cancel', date, programId: program.id }),
      onSaved: () => notifySuccess(`"${program.title}" cancelled on ${longDate(date)}`),
      failure: 'Could not cancel the programme',
    });

  const submit = (values: ProgramFormValues) => {
    if (!editing) return;
    const { dayOfWeek: _day, isActive: _active, ...fields } = values;
    const target =
      editing.kind === 'replace'
        ? { kind: 'replace' as const, programId: editing.program.id }
        : { kind: 'add' as const };
    void save({
      check: () => checkOneOff({ ...fields, ...target, date }),
      attempt: (confirmOverlap) => add.mutateAsync({ ...fields, ...target, date, confirmOverlap }),
      onSaved: () => {
        notifySuccess(editing.kind === 'replace' ? 'Replacement saved' : 'Special service added');
        setEditing(null);
      },
      failure: 'Could not save the one-off change',
    });
  };

  const undo = (change: OneOff) =>
    remove.mutate(change.id, {
      onSuccess: () => notifySuccess('One-off change removed'),
      onError: (error) => notifyFailure('Could not remove the one-off change', error),
    });

  return (
    <section aria-labelledby="one-off-title" className="space-y-4">
      <div>
        <h3 id="one-off-title" className="text-lg font-semibold text-blue-950">
          One-off changes
        </h3>
        <p className="text-sm text-slate-600">
          Cancel or replace a weekly programme on one date, or add a special service. A one-off change wins
          over the weekly schedule on its date.
        </p>
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="space-y-2">
          <Label htmlFor="one-off-date">Date</Label>
          <Input
            id="one-off-date"
            type="date"
            min={week.today}
            value={date}
            onChange={(event) => setDate(event.target.value)}
            className="w-full sm:w-48"
          />
        </div>
        <Button variant="outline" disabled={!valid} onClick={() => setEditing({ kind: 'add' })}>
          <Plus aria-hidden="true" />
          Add a special service
        </Button>
      </div>
      {!valid ? (
        <p className="text-sm text-red-700">Choose today or a later date.</p>
      ) : (
        <div className="space-y-2">
          <h4 className="text-sm font-semibold text-slate-900">{longDate(date)}</h4>
          {weekly.length === 0 && specials.length === 0 ? (
            <p className="text-sm text-slate-600">No programmes on this date.</p>
          ) : (
            <ul
              aria-label={`Programmes on ${longDate(date)}`}
              className="divide-y divide-slate-100 rounded-md border border-slate-200"
            >
              {weekly.map((program) => {
                const change = onDate.find((o) => o.programId === program.id);
                return (
                  <li
                    key={program.id}
                    className="flex flex-col gap-2 px-3 py-2 sm:flex-row sm:items-center sm:justify-between"
                  >
                    <div className="min-w-0 text-sm">
                      <span className="tabular-nums text-slate-600">
                        {timeRange(program.startTime, program.duration)}
                      </span>{' '}
                      <span
                        className={
                          change ? 'font-medium text-slate-500 line-through' : 'font-medium text-slate-900'
                        }
                      >
                        {program.title}
                      </span>
                      {change?.kind === 'cancel' && (
                        <Badge variant="secondary" className="ml-2">
                          Cancelled
                        </Badge>
                      )}
                      {change?.kind === 'replace' && (
                        <>
                          <p className="text-amber-800">
                            Replaced by "{change.title}" ({timeRange(change.startTime!, change.duration!)})
                          </p>
                          {airsLine(change)}
                        </>
                      )}
                    </div>
                    <div className="flex shrink-0 gap-2">
                      {change ? (
                        <Button
                          size="sm"
                          variant="outline"
                          onClick={() => undo(change)}
                          disabled={remove.isPending}
                        >
                          Undo<span className="sr-only">{` the change to ${program.title}`}</span>
                        </Button>
                      ) : (
                        <>
                          <Button
                            size="sm"
                            variant="outline"
                            onClick={() => cancel(program)}
                            disabled={add.isPending}
                            aria-label={`Cancel that day: ${program.title}`}
                          >
                            Cancel that day
                          </Button>
                          <Button
                            size="sm"
                            variant="outline"
                            onClick={() => setEditing({ kind: 'replace', program })}
                          >
                            Replace<span className="sr-only">{` ${program.title}`}</span>
                          </Button>
                        </>
                      )}
                    </div>
                  </li>
                );
              })}
              {specials.map((special) => (
                <li
                  key={special.id}
                  className="flex flex-col gap-2 px-3 py-2 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="min-w-0 text-sm">
                    <span className="tabular-nums text-slate-600">
                      {timeRange(special.startTime!, special.duration!)}
                    </span>{' '}
                    <span className="font-medium text-slate-900">{special.title}</span>
                    <Badge variant="gold" className="ml-2">
                      Special
                    </Badge>
                    {airsLine(special)}
                  </div>
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => undo(special)}
                    disabled={remove.isPending}
                  >
                    Remove<span className="sr-only">{` ${special.title}`}</span>
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <ComingUp oneOffs={oneOffs} onPick={setDate} />
      <ProgramFormDialog
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        title={editing?.kind === 'replace' ? `Replace ${editing.program.title}` : 'Add a special service'}
        description={`On ${valid ? longDate(date) : date} only, in the station's time zone (${week.timeZone}).`}
        defaults={
          editing?.kind === 'replace'
            ? {
                ...editing.program,
                speaker: editing.program.speaker ?? '',
                ministryFocus: editing.program.ministryFocus ?? '',
                description: editing.program.description ?? '',
              }
            : emptyProgram(day ?? 'sunday')
        }
        weekly={false}
        submitLabel={editing?.kind === 'replace' ? 'Save replacement' : 'Add special service'}
        pending={add.isPending}
        onSubmit={submit}
      />
      {dialog}
    </section>
  );
}
