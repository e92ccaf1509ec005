import { useCallback, useState } from 'react';
import { overlapSummary, type OverlapCheck } from '../../../../common/programs';
import { ConfirmDialog } from '../../../components/ui/alert-dialog';
import { ApiError, serverMessage } from '../../../lib/api-request';
import { notifyFailure } from '../../../lib/notify';

interface Save {
  /** Asks the station what the change would overlap, before anything is saved. */
  check?: () => Promise<OverlapCheck>;
  /** Sends the change; `confirmOverlap` is true once staff said "Save anyway". */
  attempt: (confirmOverlap: boolean) => Promise<unknown>;
  onSaved?: () => void;
  /** The toast's title if the save fails for any other reason. */
  failure: string;
}

/**
 * Asks the station first whether a change would overlap another programme (a 200 naming them); if it
 * would, shows which and sends the change only on "Save anyway", with `confirmOverlap: true`. A 409 is
 * left for a programme someone else saved between the check and the save: it is asked about the same way.
 */
export function useOverlapGuard() {
  const [pending, setPending] = useState<{ message: string; retry: () => void } | null>(null);

  const save = useCallback(async function run(change: Save, confirm = false) {
    const ask = (message: string) => setPending({ message, retry: () => void run(change, true) });
    try {
      if (!confirm && change.check) {
        const { overlaps } = await change.check();
        if (overlaps.length > 0) return ask(`${overlapSummary(overlaps)} Save it anyway?`);
      }
      await change.attempt(confirm);
      change.onSaved?.();
    } catch (error) {
      if (!confirm && error instanceof ApiError && error.status === 409) {
        ask(serverMessage(error) ?? 'This overlaps another programme.');
      } else {
        notifyFailure(change.failure, error);
      }
    }
  }, []);

  const dialog = (
    <ConfirmDialog
      open={pending !== null}
      onOpenChange={(open) => !open && setPending(null)}
      title="Overlapping programmes"
      description={pending?.message ?? ''}
      cancelLabel="Go back"
      confirmLabel="Save anyway"
      onConfirm={() => pending?.retry()}
    />
  );

  return { save, dialog };
}
