import { useCallback, useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/alert-dialog';
import { ApiError, serverMessage } from '../../../lib/api-request';
import { notifyFailure } from '../../../lib/notify';

interface Save {
  /** Sends the change; `confirmOverlap` is true on the second try, after staff said "Save anyway". */
  attempt: (confirmOverlap: boolean) => Promise<unknown>;
  onSaved?: () => void;
  /** The toast's title if the save fails for any other reason. */
  failure: string;
}

/**
 * The station refuses a programme that would overlap another with a 409 naming it; this shows its words
 * and, on "Save anyway", sends the same change again with `confirmOverlap: true`.
 */
export function useOverlapGuard() {
  const [pending, setPending] = useState<{ message: string; retry: () => void } | null>(null);

  const save = useCallback(async function run({ attempt, onSaved, failure }: Save, confirm = false) {
    try {
      await attempt(confirm);
      onSaved?.();
    } catch (error) {
      if (!confirm && error instanceof ApiError && error.status === 409) {
        setPending({
          message: serverMessage(error) ?? 'This overlaps another programme.',
          retry: () => void run({ attempt, onSaved, failure }, true),
        });
      } else {
        notifyFailure(failure, error);
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
