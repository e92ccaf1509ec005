import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readUpstreamStatus, splitArtistTitle, UpstreamStatusError } from './external-status.js';

const STREAM = 'http://radio.example.org:8000/live';
const icecast = (source: unknown) => JSON.stringify({ icestats: { host: 'radio', source, dummy: null } });

describe('reading an external station status', () => {
  it('splits Artist - Title only when no artist is given', () => {
    expect(splitArtistTitle('Grace Choir - Amazing Grace', null)).toEqual({
      artist: 'Grace Choir',
      title: 'Amazing Grace',
    });
    expect(splitArtistTitle('A - B - C', null)).toEqual({ artist: 'A', title: 'B - C' });
    expect(splitArtistTitle('Sermon - Part 1', 'Pastor')).toEqual({
      artist: 'Pastor',
      title: 'Sermon - Part 1',
    });
    expect(splitArtistTitle('No dash here', null)).toEqual({ artist: null, title: 'No dash here' });
    expect(splitArtistTitle(' - leading', null)).toEqual({ artist: null, title: ' - leading' });
  });

  it('picks the Icecast mount of the stream URL by path, whatever host Icecast reports', () => {
    const status = icecast([
      { listenurl: 'http://localhost:8000/other', title: 'Other - Song', listeners: 9 },
      { listenurl: 'http://localhost:8000/live', title: 'Grace Choir - Amazing Grace', listeners: 4 },
    ]);
    expect(readUpstreamStatus(status, STREAM)).toEqual({
      title: 'Amazing Grace',
      artist: 'Grace Choir',
      artworkUrl: null,
      listeners: 4,
      onAir: true,
      startedAtMs: null,
    });
  });

  it('reads one Icecast mount given as an object, with artist and title apart', () => {
    const status = icecast({ listenurl: 'http://x/live', artist: 'Choir', title: 'Hymn', listeners: '7' });
    expect(readUpstreamStatus(status, STREAM)).toMatchObject({
      title: 'Hymn',
      artist: 'Choir',
      listeners: 7,
      onAir: true,
    });
  });

  it('says off air when the mount is not on the Icecast server', () => {
    expect(readUpstreamStatus(icecast(undefined), STREAM)).toMatchObject({
      onAir: false,
      listeners: 0,
      title: null,
    });
    const two = icecast([{ listenurl: 'http://x/a' }, { listenurl: 'http://x/b' }]);
    expect(readUpstreamStatus(two, STREAM)).toMatchObject({ onAir: false });
  });

  it('reads a Radio.co-style status', () => {
    const status = JSON.stringify({
      status: 'online',
      current_track: {
        title: 'Pastor John - Sunday Sermon',
        artwork_url: 'https://cdn.example.org/a.jpg',
        start_time: '2026-01-04T10:00:00+00:00',
      },
    });
    expect(readUpstreamStatus(status, STREAM)).toEqual({
      title: 'Sunday Sermon',
      artist: 'Pastor John',
      artworkUrl: 'https://cdn.example.org/a.jpg',
      listeners: 0,
      onAir: true,
      startedAtMs: Date.parse('2026-01-04T10:00:00Z'),
    });
    expect(
      readUpstreamStatus(JSON.stringify({ status: 'offline', current_track: null }), STREAM),
    ).toMatchObject({ onAir: false });
  });

  it('reads an AzuraCast now-playing document', () => {
    const status = JSON.stringify({
      is_online: true,
      listeners: { current: 12, unique: 10 },
      now_playing: {
        played_at: 1_767_520_800,
        song: { title: 'Hymn', artist: 'Choir', text: 'Choir - Hymn', art: 'https://a.example/art.png' },
      },
    });
    expect(readUpstreamStatus(status, STREAM)).toEqual({
      title: 'Hymn',
      artist: 'Choir',
      artworkUrl: 'https://a.example/art.png',
      listeners: 12,
      onAir: true,
      startedAtMs: 1_767_520_800_000,
    });
  });

  it('never passes on artwork that is not an http(s) address', () => {
    const status = JSON.stringify({
      status: 'online',
      current_track: { title: 'x', artwork_url: 'javascript:alert(1)' },
    });
    expect(readUpstreamStatus(status, STREAM).artworkUrl).toBeNull();
  });

  it('refuses malformed or unknown documents with one kind of error', () => {
    for (const body of [
      '',
      'not json',
      '{"icestats":',
      '{}',
      '[]',
      'null',
      '{"icestats":{"source":"x"}}',
      '{"status":5}',
    ]) {
      expect(() => readUpstreamStatus(body, STREAM), body).toThrow(UpstreamStatusError);
    }
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (body) => {
        try {
          const status = readUpstreamStatus(body, STREAM);
          expect(status.listeners).toBeGreaterThanOrEqual(0);
        } catch (error) {
          expect(error).toBeInstanceOf(UpstreamStatusError);
        }
      }),
    );
  });
});
