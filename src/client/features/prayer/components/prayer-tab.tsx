import { CardHeading, countOf } from '../../../components/card-heading';
import { useEffect, useState } from 'react';
import type { PrayerFilter } from '../../../../common/prayer';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { notifyFailure } from '../../../lib/notify';
import {
  useDeletePrayerRequest,
  useMarkPrayed,
  useMarkRead,
  usePrayerRequests,
  usePrayerUnread,
} from '../staff-api';

const when = (iso: string) => new Date(iso).toLocaleString();

/** DESIGN.md section 7: the staff's prayer inbox, newest first, open or prayed for (with who and when). */
export function PrayerTab() {
  const requests = usePrayerRequests();
  const markPrayed = useMarkPrayed();
  const remove = useDeletePrayerRequest();
  const [filter, setFilter] = useState<PrayerFilter>('open');
  const all = requests.data ?? [];
  useMarkSeen(all[0]?.createdAt);
  const open = all.filter((r) => !r.prayedAt).length;
  const shown = all.filter((r) => (filter === 'open' ? !r.prayedAt : Boolean(r.prayedAt)));

  return (
    <Card>
      <CardHeader className="space-y-3">
        <CardHeading
          title="Prayer Requests"
          description={requests.data ? countOf(open, 'open request') : 'Confidential requests from listeners'}
        />
        <div role="group" aria-label="Show" className="flex gap-2">
          <Button
            size="sm"
            variant={filter === 'open' ? 'default' : 'outline'}
            aria-pressed={filter === 'open'}
            onClick={() => setFilter('open')}
          >
            Open
          </Button>
          <Button
            size="sm"
            variant={filter === 'prayed' ? 'default' : 'outline'}
            aria-pressed={filter === 'prayed'}
            onClick={() => setFilter('prayed')}
          >
            Prayed for
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {requests.isPending && <Skeleton className="h-24" />}
        {requests.isError && <p className="text-sm text-red-700">The prayer requests could not be loaded.</p>}
        {requests.data && shown.length === 0 && (
          <p className="text-sm text-slate-600">
            {filter === 'open' ? 'No open prayer requests.' : 'None prayed for yet.'}
          </p>
        )}
        {shown.length > 0 && (
          <ul
            aria-label="Prayer requests"
            className="divide-y divide-slate-100 rounded-md border border-slate-200"
          >
            {shown.map((r) => (
              <li key={r.id} className="space-y-2 px-3 py-3">
                <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-slate-600">
                  <span className="font-medium text-slate-900">{r.name ?? 'Anonymous'}</span>
                  <span>{when(r.createdAt)}</span>
                </div>
                <p className="whitespace-pre-wrap text-sm text-slate-800">{r.request}</p>
                <div className="flex flex-wrap items-center gap-2">
                  {r.prayedAt ? (
                    <Badge variant="success">
                      Prayed for by {r.prayedBy ?? 'staff'} on {when(r.prayedAt)}
                    </Badge>
                  ) : (
                    <Button
                      size="sm"
                      disabled={markPrayed.isPending}
                      onClick={() =>
                        markPrayed.mutate(r.id, {
                          onError: (e) => notifyFailure('Error', e, 'Could not mark as prayed for'),
                        })
                      }
                    >
                      Mark prayed
                    </Button>
                  )}
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={remove.isPending}
                    onClick={() =>
                      remove.mutate(r.id, {
                        onError: (e) => notifyFailure('Error', e, 'Could not delete the request'),
                      })
                    }
                  >
                    Delete
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** Once the inbox is in front of staff, everything up to its newest request counts as read. */
function useMarkSeen(newest: string | undefined) {
  const unread = usePrayerUnread();
  const { mutate } = useMarkRead();
  const hasUnread = (unread.data?.unread ?? 0) > 0;
  useEffect(() => {
    if (newest && hasUnread) mutate(newest);
  }, [newest, hasUnread, mutate]);
}

/** The Prayer tab's count of unread requests, beside its name. */
export function PrayerUnreadBadge() {
  const unread = usePrayerUnread().data?.unread ?? 0;
  if (unread === 0) return null;
  return (
    <span
      className="ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1.5 text-xs font-semibold text-white"
      aria-label={`${unread} unread`}
    >
      {unread}
    </span>
  );
}
