import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../common/ws.js';
import { createSharedDatabase, postgresAvailable, startInstance, type Instance } from './test/instances.js';
import { redisAvailable, removeKeys, testRedisPrefix } from './test/redis.js';
import { addStaff, signIn, STAFF_PASSWORD } from './test/staff.js';
import { connectWS } from './test/ws-client.js';

// Two web instances (and the broadcaster) on one PostgreSQL and one Redis act as one station.
const available = (await redisAvailable()) && (await postgresAvailable());
const prefix = testRedisPrefix();
let database: Awaited<ReturnType<typeof createSharedDatabase>>;
let broadcaster: Instance;
let a: Instance;
let b: Instance;
let staff: Record<string, string>;
let nextAddress = 1;

const types: ServerMessage['type'][] = ['chat', 'chat_history', 'chat_deleted', 'presence', 'error'];

/** A listener on one instance, in a browser and at an address of their own. */
async function listener(on: Instance, browser: string) {
  const c = await connectWS(on.app, types, { browser, address: `198.51.100.${nextAddress++}` });
  return {
    ...c,
    say(message: string) {
      c.ws.send(JSON.stringify({ type: 'chat', username: browser.slice(0, 8), message }));
    },
    heard: () => c.messages.flatMap((m) => (m.type === 'chat' ? [m.data.message] : [])),
    /** Waits for a message the predicate accepts (received before or after the call). */
    async until(predicate: (m: ServerMessage) => boolean) {
      for (let n = 1; ; n++) {
        const m = await c.next(n);
        if (predicate(m)) return m;
      }
    },
  };
}
const chatSaying = (text: string) => (m: ServerMessage) => m.type === 'chat' && m.data.message === text;

beforeAll(async () => {
  if (!available) return;
  database = await createSharedDatabase();
  // As the station is spread: one broadcaster, and the two web instances the listeners and staff use.
  // One after the other: the first applies the migrations.
  broadcaster = await startInstance(database.url, prefix, { env: { STATION_ROLE: 'broadcaster' } });
  const web = {
    STATION_ROLE: 'web',
    BROADCASTER_URL: await broadcaster.app.listen({ port: 0, host: '127.0.0.1' }),
  };
  a = await startInstance(database.url, prefix, { env: web });
  b = await startInstance(database.url, prefix, { env: web });
  staff = (await addStaff(a.db, 'deacon', 'admin')).headers;
});

afterAll(async () => {
  if (!available) return;
  await a?.close();
  await b?.close();
  await broadcaster?.close();
  await database?.drop();
  await removeKeys(prefix);
});

describe.skipIf(!available)('two web instances and a broadcaster sharing PostgreSQL and Redis', () => {
  it('carries a chat message sent through A to a listener on B', async () => {
    const onA = await listener(a, 'anna-browser-00001');
    const onB = await listener(b, 'bert-browser-00002');
    onA.say('Grace and peace from A');
    await onB.until(chatSaying('Grace and peace from A'));
    onB.say('And to you from B');
    await onA.until(chatSaying('And to you from B'));
    for (const c of [onA, onB]) c.ws.terminate();
  });

  it('counts the chat messages of one address on A and B together against the flood limit', async () => {
    const address = '198.51.100.250';
    const [onA, onB] = [
      await connectWS(a.app, ['chat', 'error'], { browser: 'jack-browser-00010', address }),
      await connectWS(b.app, ['chat', 'error'], { browser: 'jack-browser-00010', address }),
    ];
    const send = (c: typeof onA, message: string) =>
      c.ws.send(JSON.stringify({ type: 'chat', username: 'Jack', message }));
    // Three go (each heard back by its sender); the fourth, on the other instance, must wait.
    send(onA, 'one');
    await onA.next(1);
    send(onB, 'two');
    await onB.next(2);
    send(onA, 'three');
    await onA.next(3);
    send(onB, 'four');
    for (let n = 1; ; n++) {
      const m = await onB.next(n);
      expect(m.type === 'chat' && m.data.message).not.toBe('four');
      if (m.type === 'error') {
        expect(m.message).toMatch(/too quickly/);
        break;
      }
    }
    for (const c of [onA, onB]) c.ws.terminate();
  });

  it('removes a message staff delete on A from a listener on B at once', async () => {
    const onB = await listener(b, 'cara-browser-00003');
    onB.say('please delete me');
    const said = await onB.until(chatSaying('please delete me'));
    const id = said.type === 'chat' ? said.data.id : '';
    const res = await a.app.inject({ method: 'DELETE', url: `/api/chat/messages/${id}`, headers: staff });
    expect(res.statusCode).toBe(204);
    await onB.until((m) => m.type === 'chat_deleted' && m.data.id === id);
    onB.ws.terminate();
  });

  it('hides from everyone, on both instances, what a sender muted on A says through B', async () => {
    const muted = await listener(b, 'dave-browser-00004');
    const onB = await listener(b, 'erin-browser-00005');
    const onA = await listener(a, 'finn-browser-00006');
    muted.say('before the mute');
    const first = await onA.until(chatSaying('before the mute'));
    const messageId = first.type === 'chat' ? first.data.id : '';
    const res = await a.app.inject({
      method: 'POST',
      url: '/api/chat/mutes',
      headers: staff,
      payload: { messageId, minutes: 10 },
    });
    expect(res.statusCode).toBe(201);
    muted.say('said while muted');
    // The sender sees it as sent; then someone else's message reaches both listeners after it.
    await muted.until(chatSaying('said while muted'));
    onB.say('after the mute');
    await onA.until(chatSaying('after the mute'));
    await onB.until(chatSaying('after the mute'));
    expect(onA.heard()).not.toContain('said while muted');
    expect(onB.heard()).not.toContain('said while muted');
    for (const c of [muted, onB, onA]) c.ws.terminate();
  });

  it('pushes a caption posted on A to a listener on B who chose its language', async () => {
    const onB = await connectWS(b.app, ['subtitle', 'pong'], { address: '198.51.100.200' });
    onB.ws.send(JSON.stringify({ type: 'subtitles_language', language: 'es' }));
    // The choice is made once B answers a ping sent after it (one socket's messages keep their order).
    onB.ws.send(JSON.stringify({ type: 'ping' }));
    await onB.next(1);
    const posted = await a.app.inject({
      method: 'POST',
      url: '/api/subtitles',
      headers: staff,
      payload: { text: 'Peace be with you', language: 'en', translations: { es: 'La paz sea contigo' } },
    });
    expect(posted.statusCode).toBe(201);
    const pushed = await onB.next(2);
    expect(pushed.type === 'subtitle' && pushed.data).toMatchObject({
      language: 'es',
      entry: { translatedText: 'La paz sea contigo' },
    });
    onB.ws.terminate();
  });

  it('revokes on B, at once, the session signed out on A', async () => {
    const signedIn = await signIn(a.app, 'deacon', STAFF_PASSWORD, '203.0.113.10');
    expect(signedIn.statusCode).toBe(200);
    const headers = { authorization: `Bearer ${signedIn.json().token as string}` };
    expect((await b.app.inject({ method: 'GET', url: '/api/admin/verify', headers })).statusCode).toBe(200);
    const out = await a.app.inject({ method: 'POST', url: '/api/admin/logout', headers });
    expect(out.statusCode).toBe(200);
    expect((await b.app.inject({ method: 'GET', url: '/api/admin/verify', headers })).statusCode).toBe(401);
  });

  it('counts wrong passwords spread over A and B together', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await signIn(i % 2 ? a.app : b.app, 'deacon', 'not the password', '203.0.113.20');
      expect(res.statusCode).toBe(401);
    }
    for (const instance of [a, b]) {
      const res = await signIn(instance.app, 'deacon', STAFF_PASSWORD, '203.0.113.20');
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Elsewhere the account is not held.
    expect((await signIn(b.app, 'deacon', STAFF_PASSWORD, '203.0.113.21')).statusCode).toBe(200);
  });

  it('counts route limits (prayer requests) from one address over A and B together', async () => {
    const pray = (on: Instance) =>
      on.app.inject({
        method: 'POST',
        url: '/api/prayer-requests',
        remoteAddress: '203.0.113.30',
        payload: { request: 'Please pray for our town.' },
      });
    for (let i = 0; i < 10; i++) expect((await pray(i % 2 ? a : b)).statusCode).toBe(201);
    expect((await pray(a)).statusCode).toBe(429);
    expect((await pray(b)).statusCode).toBe(429);
  });

  it('shows on A the listeners chatting on both instances', async () => {
    const onA = await listener(a, 'gail-browser-00007');
    const onB = [await listener(b, 'hugh-browser-00008'), await listener(b, 'iris-browser-00009')];
    await onA.until((m) => m.type === 'presence' && m.data.chatting === 3);
    for (const c of [onA, ...onB]) c.ws.terminate();
  });

  it('answers bad input on either instance with a 4xx, never a 5xx', async () => {
    for (const instance of [a, b]) {
      const bad = await instance.app.inject({
        method: 'POST',
        url: '/api/chat/mutes',
        headers: staff,
        payload: { messageId: '../x', minutes: 0 },
      });
      expect(bad.statusCode).toBe(400);
      const login = await instance.app.inject({ method: 'POST', url: '/api/admin/login', payload: 'x' });
      expect(login.statusCode).toBeGreaterThanOrEqual(400);
      expect(login.statusCode).toBeLessThan(500);
    }
  });
});
