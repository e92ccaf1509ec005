import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { Controller, useForm, type FieldError as HookFieldError } from 'react-hook-form';
import type { z } from 'zod';
import {
  DAYS_OF_WEEK,
  dayLabel,
  DEFAULT_AIRS,
  programBodySchema,
  type DayOfWeek,
} from '../../../../common/programs';
import { FieldError } from '../../../components/form/field-error';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { Switch } from '../../../components/ui/switch';
import { Textarea } from '../../../components/ui/textarea';
import { getStation } from '../../../lib/station';
import { toDraft, type AirsDraft, type AirsErrors } from './airs-draft';
import { AirsFields } from './airs-fields';

/** The same contract the station checks the body against. */
const formSchema = programBodySchema.omit({ confirmOverlap: true });
export type ProgramFormInput = z.input<typeof formSchema>;
export type ProgramFormValues = z.output<typeof formSchema>;

export const emptyProgram = (dayOfWeek: DayOfWeek): ProgramFormInput => ({
  title: '',
  speaker: '',
  ministryFocus: '',
  description: '',
  startTime: '',
  duration: 60,
  dayOfWeek,
  isActive: true,
  airs: DEFAULT_AIRS,
});

export interface ProgramFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  defaults: ProgramFormInput;
  /** Weekly programmes choose their day and whether they are on; a one-off's date is chosen already. */
  weekly: boolean;
  submitLabel: string;
  pending: boolean;
  onSubmit: (values: ProgramFormValues) => void;
}

/** Add or edit a programme: title, speaker, ministry focus, description, HH:MM start, minutes, what airs. */
export function ProgramFormDialog(props: ProgramFormDialogProps) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>{props.title}</DialogTitle>
          <DialogDescription>{props.description}</DialogDescription>
        </DialogHeader>
        {props.open && <ProgramForm {...props} />}
      </DialogContent>
    </Dialog>
  );
}

function ProgramForm({
  defaults,
  weekly,
  submitLabel,
  pending,
  onSubmit,
  onOpenChange,
  title,
}: ProgramFormDialogProps) {
  const form = useForm<ProgramFormInput, unknown, ProgramFormValues>({
    resolver: zodResolver(formSchema),
    // What airs is edited as a draft holding every kind's choice; the contract keeps the chosen kind's.
    defaultValues: { ...defaults, airs: toDraft(defaults.airs) as ProgramFormInput['airs'] },
  });
  const { errors } = form.formState;
  const base = useId();
  const field = (name: keyof ProgramFormInput, error?: HookFieldError) => ({
    id: `${base}-${name}`,
    'aria-invalid': Boolean(error),
    'aria-describedby': `${base}-${name}-error`,
  });
  const problem = (name: keyof ProgramFormInput, error?: HookFieldError) => (
    <FieldError id={`${base}-${name}-error`} message={error?.message} />
  );

  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="space-y-4" aria-label={title}>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor={`${base}-title`}>Title</Label>
          <Input required {...field('title', errors.title)} {...form.register('title')} />
          {problem('title', errors.title)}
        </div>
        <div className="space-y-2">
          <Label htmlFor={`${base}-speaker`}>Speaker (optional)</Label>
          {/* Blank: listeners see the station name (SPEC.md section 3). */}
          <Input
            placeholder={getStation().name}
            {...field('speaker', errors.speaker)}
            {...form.register('speaker')}
          />
          {problem('speaker', errors.speaker)}
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        {weekly && (
          <div className="space-y-2">
            <Label htmlFor={`${base}-dayOfWeek`}>Day</Label>
            <Controller
              control={form.control}
              name="dayOfWeek"
              render={({ field: day }) => (
                <Select value={day.value} onValueChange={day.onChange}>
                  <SelectTrigger id={`${base}-dayOfWeek`} aria-label="Day">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {DAYS_OF_WEEK.map((d) => (
                      <SelectItem key={d} value={d}>
                        {dayLabel(d)}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
          </div>
        )}
        <div className="space-y-2">
          <Label htmlFor={`${base}-startTime`}>Start time</Label>
          <Input
            type="time"
            step={60}
            required
            {...field('startTime', errors.startTime)}
            {...form.register('startTime')}
          />
          {problem('startTime', errors.startTime)}
        </div>
        <div className="space-y-2">
          <Label htmlFor={`${base}-duration`}>Duration (minutes)</Label>
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            max={1440}
            required
            {...field('duration', errors.duration)}
            {...form.register('duration', { valueAsNumber: true })}
          />
          {problem('duration', errors.duration)}
        </div>
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${base}-ministryFocus`}>Ministry focus (optional)</Label>
        <Input
          placeholder="e.g. Youth, Family, Prayer"
          {...field('ministryFocus', errors.ministryFocus)}
          {...form.register('ministryFocus')}
        />
        {problem('ministryFocus', errors.ministryFocus)}
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${base}-description`}>Description (optional)</Label>
        <Textarea rows={3} {...field('description', errors.description)} {...form.register('description')} />
        {problem('description', errors.description)}
      </div>
      <Controller
        control={form.control}
        name="airs"
        render={({ field: airs }) => (
          <AirsFields
            value={airs.value as AirsDraft}
            onChange={airs.onChange}
            errors={(errors.airs ?? {}) as AirsErrors}
          />
        )}
      />
      {weekly && (
        <div className="flex items-center gap-3">
          <Controller
            control={form.control}
            name="isActive"
            render={({ field: active }) => (
              <Switch
                id={`${base}-isActive`}
                checked={active.value ?? true}
                onCheckedChange={active.onChange}
              />
            )}
          />
          <Label htmlFor={`${base}-isActive`}>On the air every week (active)</Label>
        </div>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving...' : submitLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}
