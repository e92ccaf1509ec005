import Clock from 'lucide-react/icons/clock';
import Globe from 'lucide-react/icons/globe';
import Headphones from 'lucide-react/icons/headphones';
import Share2 from 'lucide-react/icons/share-2';
import TrendingUp from 'lucide-react/icons/trending-up';
import Users from 'lucide-react/icons/users';
import type { ComponentType } from 'react';
import type { ViralStats } from '../../../../common/sharing';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { useViralStats } from '../api';

interface Figure {
  label: string;
  icon: ComponentType<{ className?: string }>;
  value: (s: ViralStats) => string | null;
  caption: string;
}

const number = (n: number) => n.toLocaleString('en-US');

/** SPEC.md section 2 item 7, with measured figures (DESIGN.md section 7): a figure not measured says so. */
const FIGURES: Figure[] = [
  {
    label: 'Listening now',
    icon: Headphones,
    value: (s) => number(s.listenersNow),
    caption: 'on the live stream',
  },
  { label: 'Shares today', icon: Share2, value: (s) => number(s.sharesToday), caption: 'from this site' },
  {
    label: 'Hours listened',
    icon: Clock,
    value: (s) => s.hoursListenedToday.toLocaleString('en-US', { maximumFractionDigits: 1 }),
    caption: 'today, all listeners together',
  },
  {
    label: 'Countries',
    icon: Globe,
    value: (s) => (s.countries === null ? null : number(s.countries)),
    caption: 'listening today',
  },
  { label: 'Peak listeners', icon: TrendingUp, value: (s) => number(s.peakToday), caption: 'at once today' },
  {
    label: 'Total shares',
    icon: Users,
    value: (s) => number(s.sharesTotal),
    caption: 'since counting began',
  },
];

export function ViralImpactCard() {
  const stats = useViralStats();
  return (
    <section aria-labelledby="viral-impact-title">
      <Card>
        <CardHeader>
          <CardTitle id="viral-impact-title" className="text-blue-950">
            Viral Impact
          </CardTitle>
          <CardDescription>How far the good news travels, as the station measures it.</CardDescription>
        </CardHeader>
        <CardContent>
          {stats.isError && !stats.data ? (
            <p className="text-sm text-slate-600">The figures cannot be loaded right now.</p>
          ) : (
            <dl className="grid grid-cols-2 gap-4 md:grid-cols-3">
              {FIGURES.map(({ label, icon: Icon, value, caption }) => {
                const shown = stats.data ? value(stats.data) : undefined;
                return (
                  // A plain div, as a description list allows around each term and its details.
                  <div key={label} className="rounded-lg border border-slate-200 bg-white p-4">
                    <dt className="flex items-center gap-2 text-sm font-medium text-slate-700">
                      <Icon className="h-4 w-4 text-amber-600" aria-hidden="true" />
                      {label}
                    </dt>
                    <dd className="mt-1 text-2xl font-bold text-blue-950">
                      {shown === undefined ? (
                        <span className="inline-block h-7 w-16 animate-pulse rounded bg-slate-200">
                          <span className="sr-only">Loading</span>
                        </span>
                      ) : shown === null ? (
                        <span className="text-base font-medium text-slate-600">Not measured</span>
                      ) : (
                        shown
                      )}
                    </dd>
                    <dd className="text-xs text-slate-600">{caption}</dd>
                  </div>
                );
              })}
            </dl>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
