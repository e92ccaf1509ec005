import type { ListenerReport } from '../../../common/reports';

type Point = ListenerReport['overTime'][number];

/**
 * The points the "listeners over time" chart draws. Its steps hold each point's value until the next point, so
 * the last point would have no width: a listener in the report's last bucket (the last hour of a month) would not
 * show. A closing point at the end of that bucket carries its values to the end.
 */
export function chartPoints(report: Pick<ListenerReport, 'overTime' | 'bucketMinutes'>): Point[] {
  const last = report.overTime.at(-1);
  if (!last) return [];
  const end = new Date(Date.parse(last.at) + report.bucketMinutes * 60_000).toISOString();
  return [...report.overTime, { ...last, at: end }];
}
