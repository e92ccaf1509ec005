import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/icecast-server.js';
import { RelayDirectory } from './relays.js';

/** A stand-in relay status page in Icecast's shape: `listeners` on /stream, plus another mount of its own. */
async function statusServer(listeners: () => number): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    if (request.url !== '/status-json.xsl') return response.writeHead(404).end();
    const { port } = server.address() as { port: number };
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({
        icestats: {
          source: [
            { listenurl: `http://localhost:${port}/stream`, listeners: listeners() },
            { listenurl: `http://localhost:${port}/other`, listeners: 50 },
          ],
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}/stream` };
}

describe('RelayDirectory', () => {
  let busy: Awaited<ReturnType<typeof statusServer>>;
  let quiet: Awaited<ReturnType<typeof statusServer>>;
  let dead: string;
  let quietCount = 1;

  beforeAll(async () => {
    busy = await statusServer(() => 3);
    quiet = await statusServer(() => quietCount);
    dead = `http://127.0.0.1:${await freePort()}/stream`;
  });
  afterAll(() => {
    busy.server.close();
    quiet.server.close();
  });

  const logger = () => {
    const lines: string[] = [];
    return {
      lines,
      log: { warn: (m: string) => lines.push(`warn ${m}`), info: (m: string) => lines.push(`info ${m}`) },
    };
  };

  it('counts the listeners on each relay’s /stream; one not answering counts 0 and is logged once', async () => {
    const { lines, log } = logger();
    const relays = new RelayDirectory([busy.url, quiet.url, dead], {
      pick: 'least-listeners',
      log,
      statusMs: 0,
    });
    expect(await relays.listeners()).toBe(4);
    expect(await relays.listeners()).toBe(4);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^warn relay ${dead} did not answer`));
  });

  it('sends the next listener to the relay with the fewest listeners, never to one not answering', async () => {
    const { log } = logger();
    const relays = new RelayDirectory([busy.url, quiet.url, dead], {
      pick: 'least-listeners',
      log,
      statusMs: 0,
    });
    await relays.listeners();
    expect([relays.pick(), relays.pick()]).toEqual([quiet.url, quiet.url]);
    quietCount = 5;
    await relays.listeners();
    expect(relays.pick()).toBe(busy.url);
    quietCount = 1;
  });

  it('takes turns with round-robin, and has no address without relays', async () => {
    const { log } = logger();
    const relays = new RelayDirectory([busy.url, quiet.url], { pick: 'round-robin', log });
    expect([relays.pick(), relays.pick(), relays.pick()]).toEqual([busy.url, quiet.url, busy.url]);
    expect(new RelayDirectory([], { pick: 'round-robin', log }).pick()).toBeUndefined();
  });

  it('reads a relay at its inside address and gives listeners its public one', async () => {
    const { log } = logger();
    const publicUrl = 'http://relay.example.org:8000/stream';
    const relays = new RelayDirectory([publicUrl], { pick: 'least-listeners', statusUrls: [busy.url], log });
    expect(await relays.listeners()).toBe(3);
    expect(relays.pick()).toBe(publicUrl);
  });
});
