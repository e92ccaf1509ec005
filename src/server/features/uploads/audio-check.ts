import { parseFile } from 'music-metadata';

export class NotAudioError extends Error {}

export interface CheckedAudio {
  extension: 'mp3' | 'm4a';
  mimeType: 'audio/mpeg' | 'audio/mp4';
  durationSeconds: number;
}

/**
 * What the file really is, read from its bytes (never its name or declared type): MPEG layer 3 audio, or AAC /
 * ALAC audio in an MP4 container, with a duration that can be read.
 */
export async function checkAudio(file: string): Promise<CheckedAudio> {
  let format;
  try {
    ({ format } = await parseFile(file, { duration: true, skipCovers: true }));
  } catch (error) {
    throw new NotAudioError(String(error));
  }
  const duration = format.duration;
  if (!duration || !Number.isFinite(duration) || duration <= 0) throw new NotAudioError('no duration');
  const seconds = Math.round(duration);
  if (format.container === 'MPEG' && /layer 3/i.test(format.codec ?? ''))
    return { extension: 'mp3', mimeType: 'audio/mpeg', durationSeconds: seconds };
  if (/^(M4A|mp4|isom|mp42)/i.test(format.container ?? '') && /AAC|ALAC|MPEG-4/i.test(format.codec ?? ''))
    return { extension: 'm4a', mimeType: 'audio/mp4', durationSeconds: seconds };
  throw new NotAudioError(`${format.container ?? 'unknown'} / ${format.codec ?? 'unknown'}`);
}
