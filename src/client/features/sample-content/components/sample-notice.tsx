import Sparkles from 'lucide-react/icons/sparkles';
import { useState } from 'react';
import { SAMPLE_NOTICE_TITLE, SAMPLE_REMOVE_QUESTION } from '../../../../common/sample-content';
import { ConfirmDialog } from '../../../components/ui/alert-dialog';
import { Button } from '../../../components/ui/button';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import { useRemoveSampleContent, useSampleContent } from '../api';

/** Kept per browser: staff who chose to keep the sample for now are not asked on every visit. */
export const SAMPLE_NOTICE_DISMISSED_KEY = 'sampleNoticeDismissed';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function dismissedHere(): boolean {
  try {
    return localStorage.getItem(SAMPLE_NOTICE_DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * Tells staff, from their first sign-in, that the station shows invented programmes and featured items, and
 * removes them in one click, until they are removed or the notice is dismissed.
 */
export function SampleNotice() {
  const sample = useSampleContent();
  const remove = useRemoveSampleContent();
  const [dismissed, setDismissed] = useState(dismissedHere);
  const [confirming, setConfirming] = useState(false);
  const left = sample.data;
  if (dismissed || !left || left.programs + left.featured === 0) return null;

  const dismiss = () => {
    try {
      localStorage.setItem(SAMPLE_NOTICE_DISMISSED_KEY, '1');
    } catch {
      // Private mode: hidden until the page is opened again.
    }
    setDismissed(true);
  };
  const confirmRemoval = () =>
    remove.mutate(undefined, {
      onSuccess: ({ removed }) =>
        notifySuccess(
          'Sample content removed',
          `${plural(removed.programs, 'programme')} and ${plural(removed.featured, 'featured item')}.`,
        ),
      onError: (error) => notifyFailure('Could not remove the sample content', error),
    });

  return (
    <section
      aria-labelledby="sample-notice-title"
      data-testid="sample-notice"
      className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4"
    >
      <h2 id="sample-notice-title" className="flex items-center gap-2 font-semibold text-amber-950">
        <Sparkles className="h-4 w-4" aria-hidden="true" />
        {SAMPLE_NOTICE_TITLE}
      </h2>
      <p className="mt-1 text-sm text-amber-950">
        {plural(left.programs, 'programme')} in the Schedule and {plural(left.featured, 'featured item')} in
        Content were invented to show how the station looks, and listeners see them on the website. They are
        marked Sample. Removing them keeps everything your staff added or edited.
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button
          variant="destructive"
          size="sm"
          onClick={() => setConfirming(true)}
          disabled={remove.isPending}
        >
          {remove.isPending ? 'Removing...' : 'Remove sample content'}
        </Button>
        <Button variant="outline" size="sm" onClick={dismiss}>
          Keep it for now
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Remove sample content"
        description={SAMPLE_REMOVE_QUESTION}
        confirmLabel="Remove"
        destructive
        onConfirm={confirmRemoval}
      />
    </section>
  );
}
