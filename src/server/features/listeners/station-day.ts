/** An instant's calendar fields in a time zone: the one place the station's day is worked out. */
function zonedParts(instant: Date, timeZone: string): Record<string, number> {
  return Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(instant)
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
}

/** 'YYYY-MM-DD' of an instant in a time zone. */
export function dateIn(instant: Date, timeZone: string): string {
  const p = zonedParts(instant, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${String(p.year).padStart(4, '0')}-${two(p.month!)}-${two(p.day!)}`;
}

/** Midnight of `now`'s date in the station's time zone, as an instant. */
export function startOfDay(now: Date, timeZone: string): Date {
  const parts = zonedParts(now, timeZone);
  const asUtc = Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  );
  const offset = asUtc - Math.floor(now.getTime() / 1000) * 1000;
  return new Date(Date.UTC(parts.year!, parts.month! - 1, parts.day!) - offset);
}
