import { expect, it } from 'vitest';
import { createLocalBus } from '../plugins/event-bus.js';
import { BroadcasterFeed, BROADCASTER_TOPIC, type Heartbeat } from './broadcaster-link.js';
import { waitFor } from '../test/icecast-server.js';

it("sends a web instance's players to the broadcaster's /stream, also while it relays a station elsewhere", async () => {
  const bus = createLocalBus();
  const feed = new BroadcasterFeed({
    bus,
    broadcasterUrl: 'http://broadcaster.internal:5000',
    stationName: () => 'Grace Live Radio',
  });
  await feed.start();
  try {
    expect(feed.streamUrl()).toBe('http://broadcaster.internal:5000/stream');
    const heartbeat: Heartbeat = {
      nowPlaying: {
        current_track: { title: 'Psalm 23', artist: 'Choir', artwork_url: null, started_at: 12 },
        is_live: true,
        listeners: 3,
        stream_clock: 20,
      },
      peakToday: 5,
      streamSource: 'icecast:https://radio.example.org/live',
      bitrates: [128, 64],
      sentAt: Date.now(),
    };
    await bus.publish(BROADCASTER_TOPIC, heartbeat);
    await waitFor('the heartbeat heard', () => (feed.external ? true : undefined));
    expect(feed.external).toBe('icecast:https://radio.example.org/live');
    expect(feed.streamUrl()).toBe('http://broadcaster.internal:5000/stream');
    expect(feed.bitrates()).toEqual([128, 64]);
    expect(feed.nowPlaying().current_track.title).toBe('Psalm 23');
  } finally {
    await feed.stop();
    await bus.close();
  }
});
