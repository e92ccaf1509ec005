import type { MediaItem } from '../../../common/library.js';
import type { MediaRow as Row } from './repository.js';

/** A library row as staff see it (GET /api/library). */
export const toItem = (row: Row): MediaItem => ({
  id: row.id,
  title: row.title,
  artist: row.artist,
  album: row.album,
  isrc: row.isrc,
  label: row.label,
  composer: row.composer,
  ccli_song_number: row.ccliSongNumber,
  kind: row.kind,
  status: row.status,
  error: row.error,
  original_name: row.originalName,
  format: row.format,
  sample_rate: row.sampleRate,
  channels: row.channels,
  size_bytes: row.sizeBytes,
  duration_seconds: row.durationSeconds,
  loudness_lufs: row.loudnessLufs,
  true_peak_dbtp: row.truePeakDbtp,
  cue_in_seconds: row.cueInSeconds,
  cue_out_seconds: row.cueOutSeconds,
  artwork_url: row.artworkUrl,
  subtitle_languages: row.subtitleLanguages,
  draft: row.draft,
  created_at: row.createdAt.toISOString(),
});
