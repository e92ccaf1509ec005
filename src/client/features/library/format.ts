/** A duration as the list shows it: 3:07, 1:02:09. */
export function formatDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Measured loudness with a true minus sign, to one decimal: '−14.2 LUFS'. */
export function formatLoudness(lufs: number): string {
  const tenths = Math.round(lufs * 10) / 10;
  return `${tenths < 0 ? '\u2212' : ''}${Math.abs(tenths).toFixed(1)} LUFS`;
}

/** '48 kHz', '44.1 kHz'. */
export function formatSampleRate(hz: number): string {
  return `${Number((hz / 1000).toFixed(1))} kHz`;
}
