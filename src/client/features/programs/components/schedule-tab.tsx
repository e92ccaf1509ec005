import Plus from 'lucide-react/icons/plus';
import { useState } from 'react';
import { dayOfDate, type DayOfWeek, type ScheduledProgram } from '../../../../common/programs';
import { CardHeading, countOf } from '../../../components/card-heading';
import { ConfirmDialog } from '../../../components/ui/alert-dialog';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import {
  checkNewProgram,
  checkProgramChange,
  useAddProgram,
  useDeleteProgram,
  useOneOffs,
  useUpdateProgram,
  useWeekSchedule,
} from '../staff-api';
import { OneOffChanges } from './one-off-changes';
import { useOverlapGuard } from './overlap-guard';
import { emptyProgram, ProgramFormDialog, type ProgramFormValues } from './program-form-dialog';
import { UpcomingView } from './upcoming-view';
import { WeekView } from './week-view';

type Editing = { day: DayOfWeek } | { program: ScheduledProgram } | null;

export const deleteProgramQuestion = (title: string) =>
  `Are you sure you want to delete "${title}"? Its one-off changes go with it. This cannot be undone.`;

/** DESIGN.md section 7: weekly programmes by day of week in the station's time zone, plus one-off dates. */
export function ScheduleTab() {
  const week = useWeekSchedule();
  const oneOffs = useOneOffs();
  const addProgram = useAddProgram();
  const update = useUpdateProgram();
  const remove = useDeleteProgram();
  const { save, dialog } = useOverlapGuard();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<ScheduledProgram | null>(null);
  const today = week.data ? dayOfDate(week.data.today) : undefined;
  const programs = week.data?.programs ?? [];
  const overlaps = programs.filter((p) => p.overlapsWith.length > 0).length;

  const submit = (values: ProgramFormValues) => {
    const program = editing && 'program' in editing ? editing.program : undefined;
    void save({
      check: () => (program ? checkProgramChange(program.id, values) : checkNewProgram(values)),
      attempt: (confirmOverlap) =>
        program
          ? update.mutateAsync({ id: program.id, patch: { ...values, confirmOverlap } })
          : addProgram.mutateAsync({ ...values, confirmOverlap }),
      onSaved: () => {
        notifySuccess(program ? 'Programme updated' : 'Programme added');
        setEditing(null);
      },
      failure: program ? 'Could not update the programme' : 'Could not add the programme',
    });
  };

  const toggle = (program: ScheduledProgram, isActive: boolean) =>
    void save({
      check: () => checkProgramChange(program.id, { isActive }),
      attempt: (confirmOverlap) =>
        update.mutateAsync({ id: program.id, patch: { isActive, confirmOverlap } }),
      onSaved: () =>
        notifySuccess(`"${program.title}" ${isActive ? 'is on the air again' : 'is off the air'}`),
      failure: isActive ? 'Could not activate the programme' : 'Could not deactivate the programme',
    });

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => notifySuccess('Programme deleted'),
      onError: (error) => notifyFailure('Could not delete the programme', error),
    });
  };

  const program = editing && 'program' in editing ? editing.program : undefined;
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between sm:space-y-0">
          <CardHeading
            title="Schedule"
            description={
              week.data
                ? `${countOf(programs.length, 'weekly programme')}${overlaps ? `, ${countOf(overlaps, 'overlap')} flagged` : ''}. Times are in the station's time zone (${week.data.timeZone}).`
                : "Weekly programmes in the station's time zone"
            }
          />
          <Button onClick={() => setEditing({ day: today ?? 'sunday' })} disabled={!week.data}>
            <Plus aria-hidden="true" />
            Add programme
          </Button>
        </CardHeader>
        <CardContent>
          {week.isPending && <Skeleton className="h-48" />}
          {week.isError && <p className="text-sm text-red-700">The schedule could not be loaded.</p>}
          {week.data && (
            <WeekView
              programs={programs}
              today={today}
              onAdd={(day) => setEditing({ day })}
              onEdit={(p) => setEditing({ program: p })}
              onToggle={toggle}
              onDelete={setDeleting}
            />
          )}
        </CardContent>
      </Card>
      <Card>
        <CardContent className="pt-6">
          <UpcomingView
            timeZone={week.data?.timeZone}
            sampleIds={new Set(week.data?.programs.filter((p) => p.sample).map((p) => p.id))}
          />
        </CardContent>
      </Card>
      <Card>
        <CardContent className="pt-6">
          {oneOffs.isError && (
            <p className="text-sm text-red-700">The one-off changes could not be loaded.</p>
          )}
          {week.data && oneOffs.data ? (
            <OneOffChanges week={week.data} oneOffs={oneOffs.data} />
          ) : (
            !oneOffs.isError && <Skeleton className="h-32" />
          )}
        </CardContent>
      </Card>
      <ProgramFormDialog
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        title={program ? `Edit ${program.title}` : 'Add programme'}
        description={`Every week, in the station's time zone${week.data ? ` (${week.data.timeZone})` : ''}.`}
        defaults={
          program
            ? {
                ...program,
                speaker: program.speaker ?? '',
                ministryFocus: program.ministryFocus ?? '',
                description: program.description ?? '',
              }
            : emptyProgram(editing && 'day' in editing ? editing.day : 'sunday')
        }
        weekly
        submitLabel={program ? 'Save changes' : 'Add programme'}
        pending={addProgram.isPending || update.isPending}
        onSubmit={submit}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete programme"
        description={deleting ? deleteProgramQuestion(deleting.title) : ''}
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
      />
      {dialog}
    </div>
  );
}
