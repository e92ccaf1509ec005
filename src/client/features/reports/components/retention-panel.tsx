import { useState, type FormEvent } from 'react';
import { retentionSchema } from '../../../../common/reports';
import { FieldError } from '../../../components/form/field-error';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverMessage } from '../../../lib/api-request';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import { useRetention, useSaveRetention } from '../api';

const DAYS_PER_MONTH = 365 / 12;

/** A number of days as staff think of it: "about 2 years", "about 3 months". */
export function daysInWords(days: number): string {
  if (days >= 365) {
    const years = Math.round((days / 365) * 10) / 10;
    return `about ${years} year${years === 1 ? '' : 's'}`;
  }
  const months = Math.max(1, Math.round(days / DAYS_PER_MONTH));
  return `about ${months} month${months === 1 ? '' : 's'}`;
}

/**
 * How long the station keeps the as-run log and the listener sessions the reports are made from: admins read
 * it, superusers change it (the station checks both).
 */
export function RetentionPanel({ canChange }: { canChange: boolean }) {
  const retention = useRetention();
  if (retention.isPending) return <Skeleton className="h-16" />;
  if (retention.isError)
    return <p className="text-sm text-red-700">How long reports are kept could not be loaded.</p>;
  const { days } = retention.data;
  if (!canChange)
    return (
      <p className="text-sm text-slate-700" data-testid="retention-days">
        {`The as-run log and listener history are kept for ${days} days (${daysInWords(days)}). A superuser can change this.`}
      </p>
    );
  return <RetentionForm saved={days} />;
}

function RetentionForm({ saved }: { saved: number }) {
  const save = useSaveRetention();
  const [typed, setTyped] = useState(String(saved));
  const [error, setError] = useState<string>();
  const days = Number(typed);
  const readable = typed.trim() !== '' && Number.isInteger(days) && days > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = retentionSchema.safeParse({ days: typed.trim() === '' ? NaN : days });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    save.mutate(parsed.data.days, {
      onSuccess: (next) => {
        setTyped(String(next.days));
        notifySuccess('Report history setting saved', `Kept for ${next.days} days.`);
      },
      onError: (failure) => {
        setError(serverMessage(failure) ?? 'The setting could not be saved.');
        notifyFailure('Report history setting not saved', failure);
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Report history" className="space-y-2">
      <Label htmlFor="retention-days">Keep the as-run log and listener history for (days)</Label>
      <div className="flex flex-wrap items-center gap-3">
        <Input
          id="retention-days"
          type="number"
          inputMode="numeric"
          min={31}
          max={3660}
          className="w-32"
          value={typed}
          aria-invalid={!!error}
          aria-describedby={error ? 'retention-error retention-help' : 'retention-help'}
          onChange={(e) => setTyped(e.target.value)}
        />
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </Button>
      </div>
      <p id="retention-help" className="text-sm text-slate-600">
        {readable ? `That is ${daysInWords(days)}. ` : ''}
        Between 31 days and ten years. Anything older is removed for good a few hours after it passes this
        age; reports cannot cover it any more.
      </p>
      <FieldError id="retention-error" message={error} />
    </form>
  );
}
