import { CardHeading, countOf } from '../../../components/card-heading';
import Download from 'lucide-react/icons/download';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import type { SubscriberListItem } from '../../../../common/subscribers';
import { useExportSubscribers, useSubscribers } from '../api';
import { notifyFailure } from '../../../lib/notify';

/** SPEC.md section 2, Subscribers tab: a scrollable list (about 15rem high) with email, name and active flag. */
export function SubscribersTab() {
  const subscribers = useSubscribers();
  const exportCsv = useExportSubscribers();
  const count = subscribers.data?.length ?? 0;

  return (
    <Card>
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between sm:space-y-0">
        <CardHeading
          title="Email Subscribers"
          description={subscribers.data ? countOf(count, 'subscriber') : 'Newsletter sign-ups'}
        />
        <Button
          variant="outline"
          size="sm"
          disabled={exportCsv.isPending || count === 0}
          onClick={() =>
            exportCsv.mutate(undefined, {
              onError: (error) => notifyFailure('Export failed', error, 'Failed to export subscribers'),
            })
          }
        >
          <Download aria-hidden="true" />
          Export CSV
        </Button>
      </CardHeader>
      <CardContent>
        {subscribers.isPending && <Skeleton className="h-24" />}
        {subscribers.isError && <p className="text-sm text-red-700">The subscribers could not be loaded.</p>}
        {subscribers.data?.length === 0 && <p className="text-sm text-slate-600">No subscribers yet.</p>}
        {subscribers.data && subscribers.data.length > 0 && (
          <ul
            className="max-h-60 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200"
            aria-label="Subscribers"
            data-testid="subscriber-list"
          >
            {subscribers.data.map((subscriber) => (
              <li key={subscriber.id} className="flex items-center justify-between gap-3 px-3 py-2">
                <div className="min-w-0">
                  <p className="truncate text-sm font-medium text-slate-900">{subscriber.email}</p>
                  <p className="truncate text-xs text-slate-600">{subscriber.name || 'No name given'}</p>
                </div>
                <SubscriberBadge subscriber={subscriber} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

const STATUS_LABEL = { pending: 'Pending', confirmed: 'Confirmed', unsubscribed: 'Unsubscribed' } as const;

/** The double opt-in state when the station gives it, else SPEC.md's active flag. */
function SubscriberBadge({ subscriber }: { subscriber: SubscriberListItem }) {
  const { status, isActive } = subscriber;
  if (status)
    return <Badge variant={status === 'confirmed' ? 'success' : 'secondary'}>{STATUS_LABEL[status]}</Badge>;
  return <Badge variant={isActive ? 'success' : 'secondary'}>{isActive ? 'Active' : 'Inactive'}</Badge>;
}
