import { describe, expect, it } from 'vitest';
import type { StationEvent } from '../../../common/notifications.js';
import { messageFor, stationTime } from './messages.js';

const station = { name: 'Grace FM', networkName: '', networkUrl: '', timeZone: 'Europe/London' };
const at = new Date('2026-07-05T13:05:00Z');

describe('what staff read', () => {
  it('gives the time in the station’s time zone, and UTC for a zone Node does not know', () => {
    expect(stationTime(at, 'Europe/London')).toBe('14:05 on Sunday 5 July (Europe/London)');
    expect(stationTime(at, 'Mars/Olympus')).toBe('13:05 on Sunday 5 July (UTC)');
  });

  it.each<[StationEvent, string, string]>([
    [
      { type: 'live_on_air', programme: 'Sunday Service', presenter: 'Pastor Ruth' },
      'Grace FM: Sunday Service is on air',
      'The live programme "Sunday Service" with Pastor Ruth is now on air.',
    ],
    [
      { type: 'live_off_air', programme: 'Sunday Service' },
      'Grace FM: Sunday Service is off air',
      'The live programme "Sunday Service" has ended; the station plays its rotation.',
    ],
    [
      { type: 'dead_air', source: 'The church encoder', seconds: 75 },
      'Grace FM: dead air',
      'The church encoder has been silent for 1 minute 15 seconds. The station has put its rotation on air instead.',
    ],
    [
      { type: 'dead_air_ended', source: 'The church encoder', seconds: 1 },
      'Grace FM: sound is back',
      'The church encoder has sound again after 1 second of silence and is back on air.',
    ],
    [
      {
        type: 'presenter_missing',
        programme: 'Morning Devotion',
        presenter: 'Pastor Ruth',
        scheduledStart: new Date('2026-07-05T06:00:00Z'),
      },
      'Grace FM: Pastor Ruth is not connected',
      'Pastor Ruth was due on air for "Morning Devotion" at 07:00 on Sunday 5 July (Europe/London) but is not connected.',
    ],
    [
      { type: 'source_failed', source: 'The relay', reason: 'it stopped answering' },
      'Grace FM: The relay failed',
      'The relay failed: it stopped answering.',
    ],
    [
      { type: 'recording_published', title: 'Sunday Service', link: 'https://radio.example/s/1' },
      'Grace FM: "Sunday Service" is published',
      'The recording "Sunday Service" is published: https://radio.example/s/1',
    ],
  ])('%o', (event, subject, text) => {
    const message = messageFor(event, station, at);
    expect(message.subject).toBe(subject);
    expect(message.text).toContain(text);
    expect(message.text).toMatch(/\n\nGrace FM, 14:05 on Sunday 5 July \(Europe\/London\)\.$/);
  });
});
