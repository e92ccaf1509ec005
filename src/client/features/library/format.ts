export { formatDuration } from '../../../common/duration';

/** Measured loudness with a true minus sign, to one decimal: '−14.2 LUFS'. */
export function formatLoudness(lufs: number): string {
  const tenths = Math.round(lufs * 10) / 10;
  return `${tenths < 0 ? '\u2212' : ''}${Math.abs(tenths).toFixed(1)} LUFS`;
}

/** '48 kHz', '44.1 kHz'. */
export function formatSampleRate(hz: number): string {
  return `${Number((hz / 1000).toFixed(1))} kHz`;
}
