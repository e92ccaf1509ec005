import { lazy, Suspense, useState } from 'react';
import { LISTENER_STATS_PERIODS, type ListenerStatsPeriod } from '../../../../common/listeners';
import { Button } from '../../../components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useListenerStats, useListenersNow } from '../api';

// The charting library loads only when staff open this tab.
const ListenerCharts = lazy(() => import('./listener-charts'));

/** DESIGN.md section 7, Listeners tab: listeners now, and the broadcaster's figures over 7 or 30 days. */
export function ListenersTab() {
  const [days, setDays] = useState<ListenerStatsPeriod>(7);
  const stats = useListenerStats(days);
  const now = useListenersNow();

  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-3">
        <Figure label="Listening now" value={now.data} testId="listeners-now" />
        <Figure label={`Peak, last ${days} days`} value={stats.data?.peakListeners} />
        <Figure label={`Hours listened, last ${days} days`} value={stats.data?.listeningHours} />
      </div>
      <div className="flex gap-2" role="group" aria-label="Period">
        {LISTENER_STATS_PERIODS.map((period) => (
          <Button
            key={period}
            size="sm"
            variant={period === days ? 'default' : 'outline'}
            aria-pressed={period === days}
            onClick={() => setDays(period)}
          >
            Last {period} days
          </Button>
        ))}
      </div>
      {stats.isError && <p className="text-sm text-red-700">The listener figures could not be loaded.</p>}
      {stats.isPending ? (
        <Skeleton className="h-72" />
      ) : (
        stats.data && (
          <Suspense fallback={<Skeleton className="h-72" />}>
            <ListenerCharts stats={stats.data} />
          </Suspense>
        )
      )}
    </div>
  );
}

function Figure({ label, value, testId }: { label: string; value: number | undefined; testId?: string }) {
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardDescription>{label}</CardDescription>
        <CardTitle className="text-3xl text-blue-950" data-testid={testId}>
          {value === undefined ? '–' : value.toLocaleString()}
        </CardTitle>
      </CardHeader>
    </Card>
  );
}
