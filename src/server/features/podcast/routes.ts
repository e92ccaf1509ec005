import { stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { sermonsWithAudio } from '../featured-content/service.js';
import { checkAudio } from '../uploads/service.js';
import { podcastFeed, type Episode } from './feed.js';

/** What each stored sermon file holds, read once (the files never change: their names are never reused). */
const facts = new Map<string, Episode['file']>();

async function fileFacts(file: string): Promise<Episode['file'] | undefined> {
  const known = facts.get(file);
  if (known) return known;
  try {
    const [{ size }, audio] = await Promise.all([stat(file), checkAudio(file)]);
    const found = { size, mimeType: audio.mimeType, durationSeconds: audio.durationSeconds };
    facts.set(file, found);
    return found;
  } catch {
    return undefined; // a missing or unreadable file is left out of the feed
  }
}

/** GET /podcast.xml: the sermons that carry audio, newest first, for any podcast app. */
export async function podcastRoutes(
  app: FastifyInstance,
  /** The stored file behind a sermon's audio address (an upload or a library item), if it names one. */
  opts: {
    audioFile: (url: string) => Promise<string | undefined>;
    /** Where the episode's transcript is read, if it has one ready (features/speech). */
    transcriptUrl?: (audioUrl: string) => Promise<string | undefined>;
  },
) {
  app.get('/podcast.xml', async (request, reply) => {
    const episodes: Episode[] = [];
    for (const sermon of await sermonsWithAudio(app.db)) {
      const file = await opts.audioFile(sermon.audioUrl);
      const found = file && (await fileFacts(file));
      if (!found) continue;
      const transcriptUrl = await opts.transcriptUrl?.(sermon.audioUrl);
      episodes.push({ ...sermon, file: found, ...(transcriptUrl ? { transcriptUrl } : {}) });
    }
    // Kept by shared caches only when built on PUBLIC_URL (app.linkOrigin makes the rest private).
    const origin = app.linkOrigin(request, reply);
    return reply
      .type('application/rss+xml; charset=utf-8')
      .header('Cache-Control', 'public, max-age=300')
      .send(podcastFeed(app.station(), origin, episodes));
  });
}
