import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-request';
import { startTestServer, type RecordedRequest } from '../../test/http-server';
import { uploadMedia } from './api';

/**
 * The upload goes through the browser's XMLHttpRequest (jsdom's, a real HTTP client) to a real server on a
 * free port, answering as the station's POST /api/library does. The page's origin is jsdom's, so the
 * server allows it as the station's own page would be allowed.
 */
let answer: (req: RecordedRequest, res: ServerResponse) => void;
const server = await startTestServer((req, res) => {
  res.setHeader('Access-Control-Allow-Origin', window.location.origin);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Access-Control-Allow-Headers', 'authorization');
  if (req.method === 'OPTIONS') return void res.writeHead(204).end();
  answer(req, res);
});

beforeAll(() => {
  const Browser = XMLHttpRequest;
  // Relative addresses go to the test server, as the page's go to the station.
  class ToTestServer extends Browser {
    override open(method: string, url: string | URL) {
      super.open(method, new URL(url, server.base).href);
    }
  }
  vi.stubGlobal('XMLHttpRequest', ToTestServer);
});
afterEach(() => server.reset());
afterAll(async () => {
  vi.unstubAllGlobals();
  await server.close();
});

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));

const item = {
  id: 'm1',
  title: 'hymn',
  artist: '',
  album: '',
  isrc: '',
  label: '',
  composer: '',
  ccli_song_number: '',
  kind: 'music',
  status: 'analysing',
  error: null,
  original_name: 'hymn.wav',
  format: 'wav',
  sample_rate: 48000,
  channels: 2,
  size_bytes: 4096,
  duration_seconds: null,
  loudness_lufs: null,
  true_peak_dbtp: null,
  cue_in_seconds: null,
  cue_out_seconds: null,
  artwork_url: null,
  subtitle_languages: [],
  draft: false,
  created_at: '2025-03-01T10:00:00.000Z',
};

describe('uploadMedia', () => {
  it('posts one file as multipart field file with the staff token and reads back the new item', async () => {
    sessionStorage.setItem('adminToken', 'staff-token');
    answer = (_req, res) => json(res, 201, item);
    const progress: number[] = [];
    const wav = new File([new Uint8Array(4096).fill(7)], 'hymn.wav', { type: 'audio/wav' });
    expect(await uploadMedia(wav, (f) => progress.push(f))).toEqual(item);
    const post = server.requests.find((r) => r.method === 'POST')!;
    expect(post.url).toBe('/api/library');
    expect(post.headers.authorization).toBe('Bearer staff-token');
    expect(post.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(post.body).toContain('Content-Disposition: form-data; name="file"; filename="hymn.wav"');
    expect(post.body).toContain('Content-Type: audio/wav');
  });

  it("rejects with the station's message when it refuses the file", async () => {
    answer = (_req, res) => json(res, 415, { message: 'That file is not audio: it holds text.' });
    const text = new File(['These are my notes.'], 'notes.mp3', { type: 'audio/mpeg' });
    const refusal = await uploadMedia(text, () => {}).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 415, serverMessage: 'That file is not audio: it holds text.' });
  });
});
