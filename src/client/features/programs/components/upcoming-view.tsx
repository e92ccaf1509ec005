import RefreshCw from 'lucide-react/icons/refresh-cw';
import TriangleAlert from 'lucide-react/icons/triangle-alert';
import { SampleBadge } from '../../../components/sample-badge';
import type { UpcomingEntry } from '../../../../common/programs';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { cn } from '../../../lib/utils';
import { UPCOMING_HOURS, useUpcoming } from '../staff-api';
import { longDate } from './coming-up';

/** Clock time and calendar date of an instant in the station's time zone. */
function stationClock(timeZone: string) {
  let zone = timeZone;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
  } catch {
    zone = 'UTC';
  }
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const date = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return {
    time: (iso: string) => time.format(new Date(iso)),
    date: (iso: string) => date.format(new Date(iso)),
  };
}

interface Group {
  programme: UpcomingEntry['programme'];
  entries: UpcomingEntry[];
}
interface Day {
  date: string;
  groups: Group[];
}

/** Entries by station date, then by the programme they air in (consecutive entries of one programme). */
function byDayAndProgramme(entries: UpcomingEntry[], dateOf: (iso: string) => string): Day[] {
  const days: Day[] = [];
  for (const entry of entries) {
    const date = dateOf(entry.at);
    let day = days.at(-1);
    if (day?.date !== date) days.push((day = { date, groups: [] }));
    const group = day.groups.at(-1);
    if (group && group.programme?.id === entry.programme?.id) group.entries.push(entry);
    else day.groups.push({ programme: entry.programme, entries: [entry] });
  }
  return days;
}

const dayHeading = (index: number, date: string) =>
  index === 0 ? `Today, ${longDate(date)}` : index === 1 ? `Tomorrow, ${longDate(date)}` : longDate(date);

const programmeName = (group: Group) => group.programme?.title ?? 'Default rotation';

function Flags({ entry }: { entry: UpcomingEntry }) {
  if (entry.flags.length === 0) return null;
  return (
    <ul className="mt-1 space-y-1" aria-label="Problems">
      {entry.flags.map((flag, i) => (
        <li
          key={`${flag.kind}-${i}`}
          data-flag={flag.kind}
          className="flex items-start gap-1.5 rounded border border-red-300 bg-red-50 px-2 py-1 text-sm font-medium text-red-800"
        >
          <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>
            <span className="sr-only">Warning: </span>
            {flag.message}
          </span>
        </li>
      ))}
    </ul>
  );
}

function EntryRow({ entry, clock }: { entry: UpcomingEntry; clock: ReturnType<typeof stationClock> }) {
  const flagged = entry.flags.length > 0;
  return (
    <li
      data-testid="upcoming-entry"
      data-kind={entry.kind}
      className={cn('px-3 py-2 text-sm', flagged && 'border-l-4 border-l-red-500 bg-red-50/40')}
    >
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="tabular-nums text-slate-600">
          {clock.time(entry.at)}–{clock.time(entry.until)}
        </span>
        <span className={cn('font-medium', entry.kind === 'gap' ? 'italic text-red-800' : 'text-slate-900')}>
          {entry.title}
        </span>
        {entry.artist && <span className="text-slate-600">{entry.artist}</span>}
        {entry.kind === 'live' && <Badge variant="live">Live</Badge>}
      </div>
      <Flags entry={entry} />
    </li>
  );
}

/** The next 24 hours as they will air, item by item, with what would go wrong flagged before it does. */
export function UpcomingView({
  timeZone,
  sampleIds,
}: {
  timeZone?: string;
  /** The weekly programmes that are sample content, marked here as in the week. */
  sampleIds?: Set<string>;
}) {
  const upcoming = useUpcoming();
  const data = upcoming.data;
  const clock = stationClock(timeZone ?? data?.timeZone ?? 'UTC');
  const flagged = data?.entries.filter((e) => e.flags.length > 0) ?? [];
  const days = data ? byDayAndProgramme(data.entries, clock.date) : [];

  return (
    <section aria-labelledby="upcoming-title" className="space-y-4">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h3 id="upcoming-title" className="text-lg font-semibold text-blue-950">
            Next {UPCOMING_HOURS} hours
          </h3>
          <p className="text-sm text-slate-600">
            What will air, item by item, in the station's time zone. Problems are flagged before they happen;
            the list is read again every 30 seconds and after each change to the schedule.
          </p>
        </div>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void upcoming.refetch()}
          disabled={upcoming.isFetching}
        >
          <RefreshCw aria-hidden="true" />
          Refresh
        </Button>
      </div>
      {upcoming.isPending && <Skeleton className="h-32" />}
      {upcoming.isError && (
        <p className="text-sm text-red-700">
          {data
            ? 'What airs next could not be read again; the list below may be out of date.'
            : 'What airs next could not be loaded. It is tried again every 30 seconds.'}
        </p>
      )}
      {data && data.entries.length === 0 && (
        <p className="text-sm text-slate-600">
          Nothing is planned to air in the next {UPCOMING_HOURS} hours.
        </p>
      )}
      {flagged.length > 0 && (
        <div
          role="region"
          aria-label="Problems ahead"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900"
        >
          <p className="flex items-center gap-1.5 font-semibold">
            <TriangleAlert className="h-4 w-4" aria-hidden="true" />
            {flagged.length === 1 ? '1 problem ahead' : `${flagged.length} problems ahead`}
          </p>
          <ul className="mt-1 list-disc space-y-0.5 pl-6">
            {flagged.map((entry, i) => (
              <li key={`${entry.at}-${i}`}>
                <span className="tabular-nums">{clock.time(entry.at)}</span>{' '}
                {entry.programme ? `${entry.programme.title}: ` : ''}
                {entry.flags.map((f) => f.message).join(' ')}
              </li>
            ))}
          </ul>
        </div>
      )}
      {days.length > 0 && (
        // A keyboard user scrolls the list by focusing it (axe: scrollable-region-focusable); its name says
        // what the focus has landed on.
        <div
          role="region"
          aria-label={`Next ${UPCOMING_HOURS} hours by day`}
          tabIndex={0}
          className="max-h-[36rem] space-y-4 overflow-y-auto rounded-md pr-1 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-500 focus-visible:ring-offset-2"
        >
          {days.map((day, index) => (
            <div key={day.date} className="space-y-2">
              <h4 className="text-sm font-semibold text-slate-900">{dayHeading(index, day.date)}</h4>
              {day.groups.map((group) => {
                const first = group.entries[0]!;
                const last = group.entries.at(-1)!;
                const name = programmeName(group);
                const label = `${name}, ${clock.time(first.at)}–${clock.time(last.until)}`;
                return (
                  <div
                    key={first.at}
                    className={cn(
                      'rounded-md border',
                      group.programme ? 'border-amber-300' : 'border-slate-200',
                    )}
                  >
                    <p
                      className={cn(
                        'flex flex-wrap items-center gap-2 rounded-t-md px-3 py-1.5 text-xs font-semibold uppercase tracking-wide',
                        group.programme ? 'bg-amber-50 text-amber-900' : 'bg-slate-50 text-slate-600',
                      )}
                    >
                      {name}
                      {group.programme && sampleIds?.has(group.programme.id) && (
                        <SampleBadge className="normal-case tracking-normal" />
                      )}
                      <span className="font-normal normal-case tabular-nums">
                        {clock.time(first.at)}–{clock.time(last.until)}
                      </span>
                    </p>
                    <ul aria-label={label} className="divide-y divide-slate-100">
                      {group.entries.map((entry, i) => (
                        <EntryRow key={`${entry.at}-${i}`} entry={entry} clock={clock} />
                      ))}
                    </ul>
                  </div>
                );
              })}
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
