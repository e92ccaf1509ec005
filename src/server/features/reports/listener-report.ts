import type { PlayerKind } from '../../../common/as-run.js';
import type { ListenerReport } from '../../../common/reports.js';
import type { ProgrammeFigures } from '../as-run/service.js';
import type { Interval, SessionSpan } from '../listeners/service.js';

const HOUR_MS = 3_600_000;
const round2 = (n: number) => Math.round(n * 100) / 100;
/**
 * A point's average to four decimals: the shortest listener (ten seconds) in a day is 0.0001, so a session shorter
 * than its point never reads as nobody (to two decimals, anyone under 18 seconds in an hour was 0).
 */
const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/** Session lengths as the report groups them (whole session, whatever part fell in the period). */
const LENGTHS = [
  { label: 'Under 5 minutes', under: 5 },
  { label: '5 to 15 minutes', under: 15 },
  { label: '15 to 30 minutes', under: 30 },
  { label: '30 to 60 minutes', under: 60 },
  { label: '1 to 2 hours', under: 120 },
  { label: '2 hours or more', under: Infinity },
];

/** How long each point of the chart covers: 5 minutes for a day or two, an hour up to a month, else a day. */
export function bucketMinutesFor(days: number): number {
  if (days <= 2) return 5;
  if (days <= 31) return 60;
  return 1440;
}

/** Windows merged into disjoint runs, oldest first. */
function merged(windows: Interval[]): Interval[] {
  const sorted = windows.filter((w) => w.end > w.start).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const w of sorted) {
    const last = out.at(-1);
    if (last && w.start <= last.end) last.end = Math.max(last.end, w.end);
    else out.push({ ...w });
  }
  return out;
}

/** The parts of [start, end) inside the windows (sorted, disjoint). */
function clip(session: Interval, windows: Interval[]): Interval[] {
  let lo = 0;
  let hi = windows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (windows[mid]!.end <= session.start) lo = mid + 1;
    else hi = mid;
  }
  const parts: Interval[] = [];
  for (let i = lo; i < windows.length && windows[i]!.start < session.end; i++) {
    const start = Math.max(session.start, windows[i]!.start);
    const end = Math.min(session.end, windows[i]!.end);
    if (end > start) parts.push({ start, end });
  }
  return parts;
}

/**
 * The listener report: sessions (already counted as listeners) within the period, or within the airtime of the
 * programmes asked for; the programmes' own figures from the as-run log.
 */
export function listenerReport(input: {
  period: { from: string; to: string };
  timeZone: string;
  from: number;
  to: number;
  sessions: SessionSpan[];
  programmes: ProgrammeFigures[];
  /** Only this airtime counts (a programme's or a presenter's report); null: the whole period. */
  windows: Interval[] | null;
  geoip: boolean;
}): ListenerReport {
  const { from, to } = input;
  const days = Math.round((to - from) / 86_400_000);
  const bucketMinutes = bucketMinutesFor(days);
  const bucketMs = bucketMinutes * 60_000;
  const windows = input.windows
    ? merged(input.windows.map((w) => ({ start: Math.max(from, w.start), end: Math.min(to, w.end) })))
    : [{ start: from, end: to }];
  const windowMs = windows.reduce((sum, w) => sum + (w.end - w.start), 0);

  const buckets = Math.max(1, Math.ceil((to - from) / bucketMs));
  const listened = new Float64Array(buckets);
  const events: [number, number][] = [];
  let listenedMs = 0;
  let counted = 0;
  const lengths = LENGTHS.map(() => 0);
  const groups = {
    bitrate: new Map<number, { sessions: number; ms: number }>(),
    country: new Map<string, { sessions: number; ms: number }>(),
    player: new Map<PlayerKind, { sessions: number; ms: number }>(),
  };
  const add = <K>(map: Map<K, { sessions: number; ms: number }>, key: K, ms: number) => {
    const seen = map.get(key) ?? { sessions: 0, ms: 0 };
    seen.sessions++;
    seen.ms += ms;
    map.set(key, seen);
  };

  for (const session of input.sessions) {
    const whole = { start: session.start, end: session.end };
    const parts = clip(whole, windows);
    if (!parts.length) continue;
    counted++;
    let ms = 0;
    for (const part of parts) {
      ms += part.end - part.start;
      events.push([part.start, 1], [part.end, -1]);
      // Its time in each bucket it spans.
      for (let b = Math.floor((part.start - from) / bucketMs); b < buckets; b++) {
        const bStart = from + b * bucketMs;
        const overlap = Math.min(part.end, bStart + bucketMs) - Math.max(part.start, bStart);
        if (overlap <= 0) break;
        listened[b]! += overlap;
      }
    }
    listenedMs += ms;
    const minutes = (whole.end - whole.start) / 60_000;
    lengths[LENGTHS.findIndex((l) => minutes < l.under)]!++;
    add(groups.bitrate, session.bitrate, ms);
    add(groups.player, session.player as PlayerKind, ms);
    if (session.country) add(groups.country, session.country, ms);
  }

  // Peak per bucket and overall: one sweep over every join and leave.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const peaks = new Int32Array(buckets);
  let now = 0;
  let peak = 0;
  for (const [at, step] of events) {
    now += step;
    if (step > 0) {
      peak = Math.max(peak, now);
      const b = Math.min(buckets - 1, Math.floor((at - from) / bucketMs));
      peaks[b] = Math.max(peaks[b]!, now);
    }
  }
  // A bucket someone was listening through (joined earlier) has at least that many.
  now = 0;
  let e = 0;
  for (let b = 0; b < buckets; b++) {
    const bStart = from + b * bucketMs;
    while (e < events.length && events[e]![0] <= bStart) now += events[e++]![1];
    peaks[b] = Math.max(peaks[b]!, now);
  }

  const shares = <K>(map: Map<K, { sessions: number; ms: number }>) =>
    [...map.entries()]
      .map(([key, v]) => ({ key, sessions: v.sessions, hours: round2(v.ms / HOUR_MS) }))
      .sort((a, b) => b.hours - a.hours || b.sessions - a.sessions);

  return {
    from: input.period.from,
    to: input.period.to,
    timeZone: input.timeZone,
    bucketMinutes,
    overTime: Array.from({ length: buckets }, (_, b) => {
      const bStart = from + b * bucketMs;
      const length = Math.min(bucketMs, to - bStart);
      return { at: new Date(bStart).toISOString(), average: round4(listened[b]! / length), peak: peaks[b]! };
    }),
    peak,
    average: windowMs > 0 ? round2(listenedMs / windowMs) : 0,
    listeningHours: round2(listenedMs / HOUR_MS),
    sessions: counted,
    sessionLengths: LENGTHS.map((l, i) => ({ label: l.label, sessions: lengths[i]! })),
    programmes: input.programmes
      .map((p) => ({
        programme: p.programmeTitle ?? 'No programme (rotation)',
        programmeId: p.programmeId,
        average: p.seconds > 0 ? round2(p.listenerSeconds / p.seconds) : 0,
        peak: p.peak,
        hours: round2(p.listenerSeconds / 3600),
      }))
      .sort((a, b) => b.hours - a.hours || b.peak - a.peak),
    bitrates: shares(groups.bitrate).map(({ key, ...v }) => ({ kbps: key, ...v })),
    countries: input.geoip ? shares(groups.country).map(({ key, ...v }) => ({ country: key, ...v })) : null,
    players: shares(groups.player).map(({ key, ...v }) => ({ player: key, ...v })),
  };
}
