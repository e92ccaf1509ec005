import type { ReactElement, ReactNode } from 'react';
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { ListenerStats } from '../../../../common/listeners';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { getStation } from '../../../lib/station';

const CHART_MARGIN = { top: 8, right: 16, left: 0, bottom: 0 };

/** One chart in a card, or a line saying there is nothing to draw yet. */
function ChartCard({
  title,
  description,
  testId,
  empty,
  children,
}: {
  title: string;
  description: ReactNode;
  testId: string;
  empty: string | undefined;
  children: ReactElement;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className={empty ? undefined : 'h-64'} data-testid={testId}>
        {empty ? (
          <p className="text-sm text-slate-600">{empty}</p>
        ) : (
          <ResponsiveContainer width="100%" height="100%">
            {children}
          </ResponsiveContainer>
        )}
      </CardContent>
    </Card>
  );
}

const dayLabel = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** Listeners per minute and hours listened per day, from the broadcaster's own figures. */
export default function ListenerCharts({ stats }: { stats: ListenerStats }) {
  const timeZone = getStation().timeZone;
  const dateLabel = (ms: number) =>
    new Date(ms).toLocaleDateString(undefined, { timeZone, month: 'short', day: 'numeric' });
  const timeLabel = (ms: number) =>
    new Date(ms).toLocaleString(undefined, {
      timeZone,
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    });
  const minutes = stats.perMinute.map((point) => ({ t: Date.parse(point.at), listeners: point.listeners }));
  // The whole period on a time axis, so quiet stretches show as such rather than being squeezed out.
  const end = Date.parse(stats.until);
  const start = end - stats.days * 86_400_000;
  const domain = [start, end];
  // A tick a day over 7 days, every fifth day over 30.
  const tickStep = (stats.days === 7 ? 1 : 5) * 86_400_000;
  const ticks = Array.from(
    { length: Math.floor((end - start) / tickStep) + 1 },
    (_, i) => start + i * tickStep,
  );
  const days = stats.perDay.map((day) => ({ ...day, label: dayLabel(day.date) }));

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <ChartCard
        title="Listeners per minute"
        description={
          <>
            Last {stats.days} days
            {stats.minutesPerPoint > 1 && ` (highest in each ${stats.minutesPerPoint}-minute interval)`}
          </>
        }
        testId="listeners-per-minute"
        empty={minutes.length === 0 ? 'No listener figures yet for this period.' : undefined}
      >
        <AreaChart data={minutes} margin={CHART_MARGIN}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis
            dataKey="t"
            type="number"
            scale="time"
            domain={domain}
            ticks={ticks}
            tickFormatter={dateLabel}
            tick={{ fontSize: 11 }}
            minTickGap={32}
          />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
          <Tooltip labelFormatter={(value) => timeLabel(Number(value))} />
          <Area
            type="stepAfter"
            dataKey="listeners"
            name="Listeners"
            stroke="#1e3a8a"
            fill="#bfdbfe"
            isAnimationActive={false}
          />
        </AreaChart>
      </ChartCard>
      <ChartCard
        title="Hours listened per day"
        description={<>Last {stats.days} days</>}
        testId="listening-hours-per-day"
        empty={days.length === 0 ? 'No listening recorded yet for this period.' : undefined}
      >
        <BarChart data={days} margin={CHART_MARGIN}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={8} />
          <YAxis
            tick={{ fontSize: 11 }}
            tickFormatter={(hours: number) => String(Number(hours.toPrecision(2)))}
          />
          <Tooltip formatter={(value) => [`${Number(value).toFixed(1)} h`, 'Hours']} />
          <Bar dataKey="hours" name="Hours" fill="#f59e0b" isAnimationActive={false} />
        </BarChart>
      </ChartCard>
    </div>
  );
}
