/**
 * A fixed-offset zone in which it is now about midday, so the next minutes (and ten minutes ago, and the evening)
 * are today whatever the hour of the run. Etc/GMT signs are inverted: Etc/GMT-5 is UTC+5. Whole hours: minutes
 * are the same as in UTC.
 */
export function middayZone(now = new Date()) {
  const offset = 12 - now.getUTCHours(); // -11 … +12
  return offset === 0 ? 'Etc/GMT' : offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

/** The wall-clock time `at` (epoch ms) in `zone`, as the admin panel's time fields take it: HH:MM. */
export const clockIn = (zone: string, at: number) =>
  new Date(at).toLocaleTimeString('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
