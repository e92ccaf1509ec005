import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { PLAYER_LABELS } from '../../../../common/as-run';
import type { ListenerReport } from '../../../../common/reports';
import { Button } from '../../../components/ui/button';
import { saveFile } from '../api';
import { chartPoints } from '../chart-points';
import { tableCsv } from '../csv';

type Cell = string | number | null;

/** One table of the report, with its CSV. */
function ReportTable({
  title,
  header,
  rows,
  file,
}: {
  title: string;
  header: string[];
  rows: Cell[][];
  file: string;
}) {
  return (
    <section className="space-y-2" aria-label={title}>
      <div className="flex items-center justify-between gap-2">
        <h3 className="font-semibold text-blue-950">{title}</h3>
        <Button
          variant="outline"
          size="sm"
          onClick={() => saveFile(new Blob([tableCsv(header, rows)], { type: 'text/csv' }), file)}
        >
          CSV
        </Button>
      </div>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">Nothing in this period.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-slate-200 text-slate-600">
                {header.map((h) => (
                  <th key={h} className="py-1 pr-3 font-medium">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => (
                <tr key={i} className="border-b border-slate-100">
                  {row.map((cell, j) => (
                    <td key={j} className="py-1 pr-3">
                      {cell ?? '–'}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Figure({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <div className="rounded-md border border-slate-200 p-3">
      <p className="text-sm text-slate-600">{label}</p>
      <p className="text-2xl font-semibold text-blue-950" data-testid={testId}>
        {value.toLocaleString()}
      </p>
    </div>
  );
}

/** The listener report of a period: figures, a chart over time, and every table with its CSV. */
export default function ListenerReportView({ report }: { report: ListenerReport }) {
  const stem = `listeners-${report.from}-to-${report.to}`;
  const localTime = (at: string) =>
    new Date(at).toLocaleString(undefined, {
      timeZone: report.timeZone,
      month: 'short',
      day: 'numeric',
      ...(report.bucketMinutes < 1440 ? { hour: '2-digit', minute: '2-digit' } : {}),
    });
  return (
    <div className="space-y-6">
      <div className="grid gap-3 sm:grid-cols-4">
        <Figure label="Peak listeners" value={report.peak} testId="report-peak" />
        <Figure label="Average listeners" value={report.average} testId="report-average" />
        <Figure label="Hours listened" value={report.listeningHours} testId="report-hours" />
        <Figure label="Listener sessions" value={report.sessions} testId="report-sessions" />
      </div>
      <section aria-label="Listeners over time" className="h-64">
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart data={chartPoints(report)} margin={{ top: 8, right: 16, left: 0, bottom: 0 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="at" tickFormatter={localTime} minTickGap={40} />
            <YAxis allowDecimals={false} />
            <Tooltip labelFormatter={(at) => localTime(String(at))} />
            <Area type="stepAfter" dataKey="peak" name="Peak" stroke="#1e3a8a" fill="#bfdbfe" />
            <Area type="stepAfter" dataKey="average" name="Average" stroke="#b45309" fill="#fde68a" />
          </AreaChart>
        </ResponsiveContainer>
      </section>
      <ReportTable
        title="Listeners over time"
        header={['Start (UTC)', 'Average listeners', 'Peak listeners']}
        rows={report.overTime.map((p) => [p.at, p.average, p.peak])}
        file={`${stem}-over-time.csv`}
      />
      <ReportTable
        title="Programmes, ranked by hours listened"
        header={['Programme', 'Average listeners', 'Peak listeners', 'Hours listened']}
        rows={report.programmes.map((p) => [p.programme, p.average, p.peak, p.hours])}
        file={`${stem}-programmes.csv`}
      />
      <ReportTable
        title="Sessions by length"
        header={['Length', 'Sessions']}
        rows={report.sessionLengths.map((l) => [l.label, l.sessions])}
        file={`${stem}-session-lengths.csv`}
      />
      <ReportTable
        title="By bitrate"
        header={['kbps', 'Sessions', 'Hours listened']}
        rows={report.bitrates.map((b) => [b.kbps, b.sessions, b.hours])}
        file={`${stem}-bitrates.csv`}
      />
      {report.countries ? (
        <ReportTable
          title="By country"
          header={['Country', 'Sessions', 'Hours listened']}
          rows={report.countries.map((c) => [c.country, c.sessions, c.hours])}
          file={`${stem}-countries.csv`}
        />
      ) : (
        <p className="text-sm text-slate-600">
          Countries are not known: the station has no GeoIP database (GEOIP_DB), or none was found for these
          listeners.
        </p>
      )}
      <ReportTable
        title="By player"
        header={['Player', 'Sessions', 'Hours listened']}
        rows={report.players.map((p) => [PLAYER_LABELS[p.player], p.sessions, p.hours])}
        file={`${stem}-players.csv`}
      />
    </div>
  );
}
