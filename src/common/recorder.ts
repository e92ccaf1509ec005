/** SPEC.md sections 4, 5, 8 and 9: the listener's clip recorder, named as the spec names them. */

export const CLIP_LENGTHS = [15, 30, 60, 120] as const;
export type ClipLength = (typeof CLIP_LENGTHS)[number];
export const DEFAULT_CLIP_LENGTH: ClipLength = 30;
/** The timer ticks every second. */
export const RECORDER_TICK_MS = 1000;
/** MediaRecorder emits data every 1000 ms at 128000 bits/s. */
export const RECORDER_TIMESLICE_MS = 1000;
export const RECORDER_BITS_PER_SECOND = 128_000;
/** The first type MediaRecorder.isTypeSupported accepts is used. */
export const RECORDER_MIME_PREFERENCE = ['audio/mp4', 'audio/aac', 'audio/webm', 'audio/wav'] as const;
/** Echo cancellation, noise suppression and auto gain are off. */
export const RECORDER_AUDIO_CONSTRAINTS = {
  echoCancellation: false,
  noiseSuppression: false,
  autoGainControl: false,
} as const;
/** The voice-recording helper's defaults. */
export const VOICE_RECORDER_DEFAULTS = { maxDuration: 120, format: 'audio/webm' } as const;
export const DEBUG_TEST_RECORDING_MS = 3000;

/** The first MIME type in the preference order the browser supports, or undefined. */
export function pickRecorderMimeType(isTypeSupported: (type: string) => boolean): string | undefined {
  return RECORDER_MIME_PREFERENCE.find((type) => isTypeSupported(type));
}

/** Downloads are named by the lower-cased title with non-alphanumerics turned to underscores, plus the extension. */
export function clipFileName(title: string, extension = '.webm'): string {
  return `${title.toLowerCase().replace(/[^a-z0-9]/g, '_')}${extension}`;
}

/**
 * SPEC.md names every download .webm, but a browser records the first type of the preference order it
 * supports: the extension follows what was really recorded, so the file opens where it is saved.
 */
const RECORDING_EXTENSIONS: Record<string, string> = {
  'audio/mp4': '.m4a',
  'audio/aac': '.aac',
  'audio/webm': '.webm',
  'audio/wav': '.wav',
  'audio/ogg': '.ogg',
};

/** The file extension of a recording of `mimeType` (codecs ignored); .webm when the browser did not say. */
export function recordingExtension(mimeType: string): string {
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  return RECORDING_EXTENSIONS[type] ?? '.webm';
}

export const GENERIC_CLIP_TITLE = 'Live Moment';
export const DEFAULT_CLIP_DESCRIPTION = 'A blessed moment from our live Christian radio broadcast';

/** An empty title becomes '{track} - {station} Live', or a generic 'Live Moment' title when no track is known. */
export function defaultClipTitle(track: string | null | undefined, station: string): string {
  const name = track?.trim();
  return name ? `${name} - ${station} Live` : `${GENERIC_CLIP_TITLE} - ${station} Live`;
}

export function clipTitleOrDefault(
  title: string | null | undefined,
  track: string | null | undefined,
  station: string,
): string {
  return title?.trim() || defaultClipTitle(track, station);
}

export function clipDescriptionOrDefault(description: string | null | undefined): string {
  return description?.trim() || DEFAULT_CLIP_DESCRIPTION;
}

/** SPEC.md section 8 (recording): messages and toasts. */
export const RECORDER_TEXT = {
  alreadyRecording: 'Recording already in progress',
  noAudioElement: 'No audio element provided for recording',
  notSupportedOnDevice: 'Audio recording not supported on this device',
  setupFailed: (reason: string) =>
    `Failed to setup audio recording: ${reason}. Please allow microphone access and try again.`,
  errorStopping: 'Error stopping recording',
  failedTitle: 'Recording failed',
  errorDuring: 'There was an error during recording',
  failedToStart: 'Failed to start recording',
  browserUnsupported:
    'Audio recording is not supported in this browser. Please try Chrome, Firefox, or Edge.',
  iosTestFailed: 'iOS test failed',
  iosNoFormat: 'No supported audio format found for iOS',
  started: 'Recording started',
  completed: 'Recording completed!',
  downloadStarted: 'Download started',
  copied: 'Copied to clipboard!',
  copiedLine: 'Share this message to spread the word',
  speakers: 'Turn up your speakers!',
  viewRecordings: 'View Recordings',
  saveMoment: 'Save this moment',
} as const;
