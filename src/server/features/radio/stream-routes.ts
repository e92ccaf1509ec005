import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STREAM_BITRATES, STREAM_PATH, streamQuerySchema } from '../../../common/radio.js';
import type { RadioEngine } from '../../radio/engine.js';
import type { NowPlayingSource } from '../../radio/now-playing-source.js';

/** The answer to a mount that is not a bitrate of ours, /stream/999 or /stream/abc alike. */
const BITRATES_MESSAGE = `This station streams at ${STREAM_BITRATES.join(', ')} kbps: /stream/64, for example`;

const ICY_HEADERS = 'icy-metaint, icy-name, icy-description, icy-genre, icy-br, icy-url, icy-pub';

/** Lets a player on another origin read the stream and its ICY headers (Icy-MetaData needs a preflight). */
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Access-Control-Allow-Headers': 'Icy-MetaData, Range',
  'Access-Control-Expose-Headers': ICY_HEADERS,
};

/**
 * A header value Node sends whatever the station's details hold: Node refuses any character beyond Latin-1
 * (and a refused header would leave the listener hanging, the reply being handed over already). As Icecast
 * does, the UTF-8 bytes go out one per latin1 character, so players reading the bytes as UTF-8 see the real
 * name in any script; control characters (refused at save, but the environment may hold one) become spaces.
 */
export const icyHeaderValue = (text: string) =>
  Buffer.from(text.replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' '), 'utf8').toString('latin1');

/**
 * The bitrate a request asks for: the mount's own (/stream/64), else the player's quality parameter (the
 * nearest bitrate on at or under it), else the main one. Null: a mount that is not on.
 */
export function chosenBitrate(on: readonly number[], mount: number | undefined, quality: number | undefined) {
  if (mount !== undefined) return on.includes(mount) ? mount : null;
  if (quality === undefined) return on[0]!;
  return on.find((kbps) => kbps <= quality) ?? on[on.length - 1]!;
}

/** GET /stream (the main bitrate) and /stream/128, /96, /80, /64: the live MP3 mounts, with ICY metadata when asked for. */
export async function streamRoutes(
  app: FastifyInstance,
  opts: {
    engine: RadioEngine;
    source: () => NowPlayingSource;
    /** Where players go when the audio is not broadcast here (a web instance: a relay or the broadcaster). */
    elsewhere: (origin: string) => string;
    /** A listener connected (not a relay pulling the stream); what it returns is called when they leave. */
    onListener?: (listener: { address: string; kbps: number; userAgent?: string }) => (() => void) | void;
  },
) {
  const { engine } = opts;
  // Open /stream connections per address: one address holding hundreds of sockets (that may never read)
  // pins kernel memory; a congregation behind one NAT stays well under the cap.
  const perAddress = new Map<string, number>();
  const cap = app.config.maxListenersPerAddress;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: ['GET', 'HEAD'],
    url: `${STREAM_PATH}/:kbps?`,
    schema: {
      querystring: streamQuerySchema,
      params: z.object({
        kbps: z.coerce
          .number({ error: BITRATES_MESSAGE })
          .refine((kbps) => (STREAM_BITRATES as readonly number[]).includes(kbps), BITRATES_MESSAGE)
          .optional(),
      }),
    },
    handler(request, reply) {
      const source = opts.source();
      const mount = request.params.kbps;
      if (source !== engine) {
        // A web instance: the audio is broadcast by the broadcaster (or a relay pulling it); players go there.
        const target = opts.elsewhere(app.linkOrigin(request, reply));
        const bitrate = mount ?? request.query.quality;
        const to =
          bitrate && target.endsWith(STREAM_PATH)
            ? `${target}/${chosenBitrate(STREAM_BITRATES, undefined, bitrate)}`
            : target;
        return reply.code(302).header('Cache-Control', 'no-cache').headers(CORS).redirect(to);
      }
      const kbps = chosenBitrate(engine.bitrates(), mount, request.query.quality);
      const broadcaster = kbps === null ? null : engine.mount(kbps);
      if (!broadcaster) {
        return reply
          .code(404)
          .send({ message: `The ${mount} kbps stream is turned off; /stream plays the station` });
      }
      const icy = request.headers['icy-metadata'] === '1';
      const station = app.station();
      const headers: Record<string, string | number> = {
        'Content-Type': 'audio/mpeg',
        'Cache-Control': 'no-cache, no-store, must-revalidate',
        Pragma: 'no-cache',
        Expires: '0',
        'X-Content-Type-Options': 'nosniff',
        'Cross-Origin-Resource-Policy': 'cross-origin',
        'icy-name': icyHeaderValue(station.name),
        'icy-description': icyHeaderValue(`${station.name}, a radio ministry of ${station.networkName}`),
        'icy-genre': 'Christian',
        'icy-url': icyHeaderValue(station.networkUrl),
        'icy-pub': '0',
        'icy-br': kbps!,
        ...CORS,
      };
      if (icy) headers['icy-metaint'] = broadcaster.metaint;
      const address = request.ip;
      const open = perAddress.get(address) ?? 0;
      if (request.method === 'GET' && open >= cap) {
        return reply
          .code(429)
          .header('Retry-After', '30')
          .send({ message: `Too many listeners from this address (at most ${cap} at once)` });
      }
      reply.hijack();
      const res = reply.raw;
      if (request.method === 'HEAD') {
        // The player's warm-up before play (and any probe): headers only, never a listener, and the
        // connection stays open so the GET that follows reuses it.
        res.writeHead(200, headers);
        res.end();
        return;
      }
      // Icecast-style: raw MP3 bytes until the connection closes, no chunked framing.
      res.useChunkedEncodingByDefault = false;
      res.writeHead(200, { ...headers, Connection: 'close' });
      res.socket?.setNoDelay(true);
      perAddress.set(address, open + 1);
      res.once('close', () => {
        const left = (perAddress.get(address) ?? 1) - 1;
        if (left > 0) perAddress.set(address, left);
        else perAddress.delete(address);
      });
      // An Icecast relay pulling the stream for its own listeners (they are counted from its status page).
      const relay = /^icecast/i.test(request.headers['user-agent'] ?? '');
      broadcaster.addListener(res, { icy, relay });
      if (!relay) {
        const left = opts.onListener?.({ address, kbps: kbps!, userAgent: request.headers['user-agent'] });
        if (left) res.once('close', left);
      }
    },
  });

  // Icecast's status page: relays, directories and monitoring tools read the mounts and their listeners here.
  app.get('/status-json.xsl', async (request, reply) => {
    if (opts.source() !== engine) {
      return reply.code(404).send({ message: 'This instance does not broadcast: ask the broadcaster' });
    }
    const station = app.station();
    const origin = app.linkOrigin(request, reply);
    const title = engine.nowPlaying().current_track;
    reply.header('Cache-Control', 'no-cache').headers(CORS);
    return {
      icestats: {
        server_id: 'Radio Ministry',
        host: new URL(origin).hostname,
        source: engine.bitrates().map((kbps) => ({
          listenurl: `${origin}${STREAM_PATH}/${kbps}`,
          server_name: station.name,
          server_description: `${station.name}, a radio ministry of ${station.networkName}`,
          server_type: 'audio/mpeg',
          genre: 'Christian',
          bitrate: kbps,
          audio_samplerate: 44100,
          channels: 2,
          listeners: engine.mount(kbps)?.listenerCount ?? 0,
          title: `${title.artist} - ${title.title}`,
        })),
      },
    };
  });

  app.options(`${STREAM_PATH}/:kbps?`, async (_request, reply) => {
    reply
      .headers({ ...CORS, 'Access-Control-Max-Age': '86400' })
      .code(204)
      .send();
  });
}
