// A built station set up for the start-precision bench through its API, as staff would: the fill in the
// default rotation, a recording, a playlist, a sermon and a presenter, each programme's audio a tone of its own.
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { E2E_ADMIN, startStation, type RunningStation } from '../../e2e/station';
import { signIn, staffCall } from '../staff';

/** What each programme kind airs, and the fill: tones on 100 Hz steps, so each falls on a Goertzel bin. */
export const TONES = {
  fill: 400,
  live: 700,
  recording: 1000,
  playlist: 1300,
  newest: 1600,
} as const;
export type Kind = Exclude<keyof typeof TONES, 'fill'>;
export type StartMode = 'on_time' | 'after_current';

export interface AudioFiles {
  fill: string;
  recording: string;
  playlist: string;
  newest: string;
}

export interface BenchStation {
  station: RunningStation;
  token: string;
  ids: { recording: string; newest: string; playlist: string; presenter: string };
  presenter: { username: string; sourcePassword: string };
}

const PRESENTER = { username: 'presenter-ruth', password: 'a long presenter password' };

async function upload(origin: string, token: string, file: string, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([await readFile(file)], { type: 'audio/mpeg' }), name);
  const response = await fetch(`${origin}/api/library`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (response.status !== 201)
    throw new Error(`upload of ${name}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/**
 * Starts a station and sets it up: `crossfade` seconds between items (0 makes a song's end one instant in
 * the audio, so "after the song" can be measured from it).
 */
export async function setUpStation(files: AudioFiles, dataDir: string, crossfade: number | null) {
  const station = await startStation({ DATA_DIR: dataDir, STATION_TIMEZONE: 'UTC', SEED_DEMO: 'false' });
  const origin = station.url;
  const token = await signIn(origin, E2E_ADMIN);
  const call = <T>(method: string, path: string, body?: unknown) =>
    staffCall<T>(origin, token, method, path, body);
  const fill = await upload(origin, token, files.fill, 'Fill - Worship.mp3');
  const recording = await upload(origin, token, files.recording, 'Pastor - Devotion.mp3');
  const song = await upload(origin, token, files.playlist, 'Choir - Programme Song.mp3');
  const newest = await upload(origin, token, files.newest, 'Pastor - Sermon.mp3');
  await call('PATCH', `/api/library/${newest}`, { kind: 'sermon' });
  // Only the fill in the default rotation, with no repeat rules for a one-song list.
  const fillList = await call<{ id: string }>('POST', '/api/admin/playlists', {
    name: 'Fill',
    order: 'in_order',
    in_rotation: true,
    no_repeat_title_minutes: 0,
    no_repeat_artist_minutes: 0,
  });
  await call('PUT', `/api/admin/playlists/${fillList.id}/items`, { media_ids: [fill] });
  const programmeList = await call<{ id: string }>('POST', '/api/admin/playlists', {
    name: 'Programme songs',
    order: 'in_order',
    no_repeat_title_minutes: 0,
    no_repeat_artist_minutes: 0,
  });
  await call('PUT', `/api/admin/playlists/${programmeList.id}/items`, { media_ids: [song] });
  const { user } = await call<{ user: { id: string } }>('POST', '/api/admin/create', {
    ...PRESENTER,
    role: 'presenter',
  });
  const { sourcePassword } = await call<{ sourcePassword: string }>(
    'POST',
    `/api/admin/accounts/${user.id}/source-password`,
  );
  if (crossfade !== null) {
    const audio = await call<Record<string, unknown>>('GET', '/api/admin/station/audio');
    await call('PUT', '/api/admin/station/audio', { ...audio, crossfade_seconds: crossfade });
  }
  // Each file airs once it is measured.
  for (let waited = 0; ; waited++) {
    const list = await call<{ items: { status: string }[] }>('GET', '/api/library?limit=10');
    if (list.items.length === 4 && list.items.every((item) => item.status === 'ready')) break;
    if (waited > 120) throw new Error('the library was not measured in two minutes');
    await sleep(500);
  }
  return {
    station,
    token,
    ids: { recording, newest, playlist: programmeList.id, presenter: user.id },
    presenter: { username: PRESENTER.username, sourcePassword },
  } satisfies BenchStation;
}

/** A one-off programme of one minute at `at` (a whole UTC minute) airing `kind`. */
export async function schedule(bench: BenchStation, at: number, kind: Kind, start: StartMode, title: string) {
  const iso = new Date(at).toISOString();
  const airs = {
    recording: { kind: 'recording', mediaId: bench.ids.recording, overrun: 'fade', start },
    playlist: { kind: 'playlist', playlistId: bench.ids.playlist, start },
    newest: { kind: 'newest', mediaKind: 'sermon', overrun: 'fade', start },
    live: { kind: 'live', presenterId: bench.ids.presenter, start },
  }[kind];
  await staffCall(bench.station.url, bench.token, 'POST', '/api/programs/one-offs', {
    kind: 'add',
    date: iso.slice(0, 10),
    title,
    startTime: iso.slice(11, 16),
    duration: 1,
    confirmOverlap: true,
    airs,
  });
}
