import { z } from 'zod';
import { STREAM_BITRATES } from './radio.js';

/** What staff may set in the Station tab's audio settings, and the steps its controls move by. */
export const AUDIO_LIMITS = {
  loudness_target_lufs: { min: -30, max: -10, step: 0.1 },
  true_peak_dbtp: { min: -6, max: 0, step: 0.1 },
  crossfade_seconds: { min: 0, max: 10, step: 0.5 },
  silence_threshold_dbfs: { min: -80, max: -20, step: 1 },
  silence_seconds: { min: 3, max: 120, step: 1 },
} as const;

const within = (label: string, unit: string, limits: { min: number; max: number }) =>
  z
    .number({ error: `${label} must be a number` })
    .min(limits.min, `${label} must be between ${limits.min} and ${limits.max} ${unit}`)
    .max(limits.max, `${label} must be between ${limits.min} and ${limits.max} ${unit}`);

const bitrateSchema = z.literal(STREAM_BITRATES, {
  error: `Each bitrate must be one of ${STREAM_BITRATES.join(', ')} kbps`,
});

/**
 * The station's audio (GET/PUT /api/admin/station/audio): every track is levelled to the loudness target with
 * its peaks kept under the true-peak ceiling, AutoDJ items overlap by the crossfade, and the stream is
 * encoded at each bitrate that is on.
 */
export const audioSettingsSchema = z
  .object({
    loudness_target_lufs: within('Loudness target', 'LUFS', AUDIO_LIMITS.loudness_target_lufs),
    true_peak_dbtp: within('Maximum true peak', 'dBTP', AUDIO_LIMITS.true_peak_dbtp),
    crossfade_seconds: within('Crossfade', 'seconds', AUDIO_LIMITS.crossfade_seconds).refine(
      (seconds) => Number.isInteger(seconds * 2),
      'Crossfade must be in steps of 0.5 seconds',
    ),
    /** Dead air: a source quieter than this for this long is replaced by the rotation until it has sound again. */
    silence_threshold_dbfs: within('Silence level', 'dBFS', AUDIO_LIMITS.silence_threshold_dbfs),
    silence_seconds: within('Silence time', 'seconds', AUDIO_LIMITS.silence_seconds),
    bitrates: z
      .array(bitrateSchema, { error: 'Bitrates must be a list of kbps' })
      .min(1, 'At least one stream bitrate must stay on')
      .refine((list) => new Set(list).size === list.length, 'Each bitrate may be listed once'),
  })
  .strict();
export type AudioSettings = z.infer<typeof audioSettingsSchema>;

/** Until staff change them: −16 LUFS, −1 dBTP, 2 s crossfades, dead air after 10 s under −50 dBFS, every bitrate on. */
export const DEFAULT_AUDIO_SETTINGS: AudioSettings = {
  loudness_target_lufs: -16,
  true_peak_dbtp: -1,
  crossfade_seconds: 2,
  silence_threshold_dbfs: -50,
  silence_seconds: 10,
  bitrates: [...STREAM_BITRATES],
};
