import { lazy, Suspense, useState, type FormEvent } from 'react';
import type { Role } from '../../../../common/accounts';
import {
  LICENCE_FIELD_LABELS,
  LICENCE_FORMAT_LABELS,
  LICENCE_FORMATS,
  reportPeriodSchema,
  type LicenceFormat,
} from '../../../../common/reports';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverMessage } from '../../../lib/api-request';
import { useDownloadLicence, useLicenceCheck, useListenerReport, type Period } from '../api';
import { RetentionPanel } from './retention-panel';

// The charting library loads only when staff open a listener report.
const ListenerReportView = lazy(() => import('./listener-report'));

const SELECT_CLASS =
  'flex h-9 w-full rounded-md border border-slate-300 bg-white px-3 py-1 text-sm shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-700';
const CATEGORIES = 'ABCDEFGHIJKL'.split('');

/** The last whole month, in the browser's calendar (the station reads the dates in its own time zone). */
function lastMonth(): Period {
  const now = new Date();
  const first = new Date(Date.UTC(now.getFullYear(), now.getMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getFullYear(), now.getMonth(), 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

/**
 * The Reports tab: for a period, the music-licence files (what lacks what the format requires listed first,
 * each with a link to fix it in the Library) and the listener report. A presenter's reports hold their own
 * programmes only (the station decides). Admins and superusers also see how long the history is kept.
 */
export function ReportsTab({ user }: { user: { role: Role } }) {
  const [typed, setTyped] = useState<Period>(lastMonth);
  const [period, setPeriod] = useState<Period | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [format, setFormat] = useState<LicenceFormat>('soundexchange');
  const [category, setCategory] = useState('A');
  const check = useLicenceCheck(period, format, category);
  const report = useListenerReport(period);
  const download = useDownloadLicence();

  const show = (event: FormEvent) => {
    event.preventDefault();
    const parsed = reportPeriodSchema.safeParse(typed);
    if (!parsed.success) return setInvalid(parsed.error.issues[0]?.message ?? 'Choose a period');
    setInvalid(null);
    setPeriod(parsed.data);
  };

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle>Period</CardTitle>
          <CardDescription>
            Whole days in the station&apos;s time zone, both dates included (at most a year).
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form
            onSubmit={show}
            noValidate
            className="flex flex-wrap items-end gap-3"
            aria-label="Report period"
          >
            <div className="space-y-1">
              <Label htmlFor="report-from">From</Label>
              <Input
                id="report-from"
                type="date"
                value={typed.from}
                onChange={(e) => setTyped({ ...typed, from: e.target.value })}
              />
            </div>
            <div className="space-y-1">
              <Label htmlFor="report-to">To</Label>
              <Input
                id="report-to"
                type="date"
                value={typed.to}
                onChange={(e) => setTyped({ ...typed, to: e.target.value })}
              />
            </div>
            <Button type="submit">Show reports</Button>
          </form>
          {invalid && (
            <p role="alert" className="mt-2 text-sm font-medium text-red-700">
              {invalid}
            </p>
          )}
        </CardContent>
      </Card>

      {period && (
        <Card>
          <CardHeader>
            <CardTitle>Music licence reports</CardTitle>
            <CardDescription>
              Spoken items and jingles are left out of SoundExchange and CCLI files; the as-run CSV holds
              everything that aired.
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <div className="grid gap-3 sm:grid-cols-[1fr_12rem]">
              <div className="space-y-1">
                <Label htmlFor="report-format">Format</Label>
                <select
                  id="report-format"
                  className={SELECT_CLASS}
                  value={format}
                  onChange={(e) => setFormat(e.target.value as LicenceFormat)}
                >
                  {LICENCE_FORMATS.map((f) => (
                    <option key={f} value={f}>
                      {LICENCE_FORMAT_LABELS[f]}
                    </option>
                  ))}
                </select>
              </div>
              {format === 'soundexchange' && (
                <div className="space-y-1">
                  <Label htmlFor="report-category">Transmission category</Label>
                  <select
                    id="report-category"
                    className={SELECT_CLASS}
                    value={category}
                    onChange={(e) => setCategory(e.target.value)}
                  >
                    {CATEGORIES.map((c) => (
                      <option key={c} value={c}>
                        {c}
                      </option>
                    ))}
                  </select>
                </div>
              )}
            </div>
            {check.isPending && <Skeleton className="h-10" />}
            {check.isError && (
              <p role="alert" className="text-sm font-medium text-red-700">
                {serverMessage(check.error) ?? 'The report could not be prepared.'}
              </p>
            )}
            {check.data && (
              <div className="space-y-3">
                <p className="text-sm text-slate-700" data-testid="licence-plays">
                  {`${check.data.plays} play${check.data.plays === 1 ? '' : 's'} to report.`}
                </p>
                {check.data.missing.length > 0 && (
                  <div className="rounded-md border border-amber-300 bg-amber-50 p-3">
                    <p className="text-sm font-medium text-amber-900">
                      {`${check.data.missing.length} item${check.data.missing.length === 1 ? ' lacks' : 's lack'} what this format requires:`}
                    </p>
                    <ul className="mt-2 space-y-1 text-sm" aria-label="Items missing fields">
                      {check.data.missing.map((item) => (
                        <li key={item.mediaId ?? `${item.artist}-${item.title}`}>
                          <span className="font-medium">{item.title}</span>
                          {item.artist && ` · ${item.artist}`}
                          {` (${item.plays} play${item.plays === 1 ? '' : 's'}): no `}
                          {item.missing.map((f) => LICENCE_FIELD_LABELS[f]).join(', no ')}
                          {item.mediaId && (
                            <>
                              {' · '}
                              <a
                                className="text-blue-800 underline"
                                href={`/dashboard-mgmt?tab=library&search=${encodeURIComponent(item.title)}`}
                                target="_blank"
                                rel="noopener noreferrer"
                              >
                                Fix in the Library
                              </a>
                            </>
                          )}
                        </li>
                      ))}
                    </ul>
                  </div>
                )}
                <Button
                  onClick={() => download.mutate({ period, format, category })}
                  disabled={download.isPending}
                >
                  {download.isPending ? 'Preparing…' : 'Download'}
                </Button>
                {download.isError && (
                  <p role="alert" className="text-sm font-medium text-red-700">
                    {serverMessage(download.error) ?? 'The file could not be downloaded.'}
                  </p>
                )}
              </div>
            )}
          </CardContent>
        </Card>
      )}

      {period && (
        <Card>
          <CardHeader>
            <CardTitle>Listener report</CardTitle>
            <CardDescription>
              Listeners counted by the station&apos;s rule: a connection of at least ten seconds
              (docs/reports.md).
            </CardDescription>
          </CardHeader>
          <CardContent>
            {report.isPending && <Skeleton className="h-72" />}
            {report.isError && (
              <p role="alert" className="text-sm font-medium text-red-700">
                {serverMessage(report.error) ?? 'The listener report could not be loaded.'}
              </p>
            )}
            {report.data && (
              <Suspense fallback={<Skeleton className="h-72" />}>
                <ListenerReportView report={report.data} />
              </Suspense>
            )}
          </CardContent>
        </Card>
      )}

      {user.role !== 'presenter' && (
        <Card>
          <CardHeader>
            <CardTitle>Report history</CardTitle>
            <CardDescription>
              How far back reports can go: the as-run log and listener sessions older than this are removed.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <RetentionPanel canChange={user.role === 'superuser'} />
          </CardContent>
        </Card>
      )}
    </div>
  );
}
