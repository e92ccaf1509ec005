/** A listener's time on the air, epoch ms. */
export interface Interval {
  start: number;
  end: number;
}

/**
 * Peak and average concurrent listeners over [from, to), and how many sessions heard any part of it: the one
 * computation behind the as-run log's figures and the listener report (sessions already counted as listeners).
 */
export function concurrency(intervals: Interval[], from: number, to: number) {
  const events: [number, number][] = [];
  let listenedMs = 0;
  let heard = 0;
  for (const { start, end } of intervals) {
    const s = Math.max(start, from);
    const e = Math.min(end, to);
    if (e <= s) continue;
    heard++;
    listenedMs += e - s;
    events.push([s, 1], [e, -1]);
  }
  // Leaving before joining at the same instant: a listener who hands over to another is not two at once.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, step] of events) {
    now += step;
    peak = Math.max(peak, now);
  }
  const length = to - from;
  return { peak, average: length > 0 ? listenedMs / length : 0, listenedMs, heard };
}
