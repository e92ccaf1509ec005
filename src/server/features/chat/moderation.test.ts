import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCKED_WORDS_MESSAGE, CHAT_MESSAGE_NOT_FOUND } from '../../../common/chat-moderation.js';
import type { ServerMessage } from '../../../common/ws.js';
import { chatMessages, chatModerationLog, settings } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';
import { connectWS } from '../../test/ws-client.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;
const types: ServerMessage['type'][] = ['chat', 'chat_history', 'chat_deleted', 'error'];
let nextAddress = 1;

/** A listener in a browser of their own, on an address of their own (so flood limits stay apart). */
const listener = async (browser: string) => {
  const c = await connectWS(t.app, types, { browser, address: `198.51.100.${nextAddress++}` });
  await c.next(1);
  return {
    ...c,
    say(message: string) {
      c.ws.send(JSON.stringify({ type: 'chat', username: browser.slice(0, 8), message }));
    },
    /** Every chat text received so far, in order. */
    heard: () => c.messages.flatMap((m) => (m.type === 'chat' ? [m.data.message] : [])),
    async until(predicate: (m: ServerMessage) => boolean) {
      for (let n = 1; ; n++) if (predicate(await c.next(n))) return;
    },
  };
};

const staffCall = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: staff, ...(payload ? { payload } : {}) });

const staffList = async () => {
  const r = await staffCall('GET', '/api/chat/messages');
  expect(r.statusCode).toBe(200);
  return r.json() as Array<Record<string, unknown>>;
};

beforeAll(async () => {
  t = await createTestApp();
  staff = (await addStaff(t.db, 'deacon', 'admin')).headers;
});
afterAll(() => t.close());

describe('chat moderation', () => {
  it('a muted sender still sees their own messages; nobody else does, now or in the history, until unmuted', async () => {
    const alice = await listener('alice-browser-0001');
    const bob = await listener('bob-browser-000002');
    alice.say('first, before any mute');
    await bob.until((m) => m.type === 'chat' && m.data.message === 'first, before any mute');
    const [first] = await staffList();

    const muted = await staffCall('POST', '/api/chat/mutes', { messageId: first!.id, minutes: 10 });
    expect(muted.statusCode).toBe(201);

    alice.say('said while muted');
    await alice.until((m) => m.type === 'chat' && m.data.message === 'said while muted');
    bob.say('bob after that');
    await bob.until((m) => m.type === 'chat' && m.data.message === 'bob after that');
    expect(bob.heard()).not.toContain('said while muted');
    // Alice is not told: no error came to her.
    expect(alice.messages.some((m) => m.type === 'error')).toBe(false);

    const carol = await listener('carol-browser-0003');
    const history = carol.messages[0]!;
    expect(history.type === 'chat_history' && history.data.map((m) => m.message)).not.toContain(
      'said while muted',
    );
    const aliceAgain = await listener('alice-browser-0001');
    const own = aliceAgain.messages[0]!;
    expect(own.type === 'chat_history' && own.data.map((m) => m.message)).toContain('said while muted');

    const list = await staffList();
    expect(list[0]).toMatchObject({ message: 'bob after that', muted: false, senderMutedUntil: null });
    expect(list[1]).toMatchObject({ message: 'said while muted', muted: true });
    expect(Date.parse(String(list[1]!.senderMutedUntil))).toBeGreaterThan(Date.now() + 9 * 60_000);

    expect((await staffCall('DELETE', `/api/chat/mutes/${String(list[1]!.sender)}`)).statusCode).toBe(204);
    alice.say('heard again');
    await bob.until((m) => m.type === 'chat' && m.data.message === 'heard again');
    for (const c of [alice, bob, carol, aliceAgain]) c.ws.terminate();
  });

  it('a deleted message disappears for everyone at once and from the history, and is recorded', async () => {
    const dan = await listener('dan-browser-000004');
    const eve = await listener('eve-browser-000005');
    dan.say('delete me please');
    await eve.until((m) => m.type === 'chat' && m.data.message === 'delete me please');
    const target = (await staffList()).find((m) => m.message === 'delete me please')!;

    expect((await staffCall('DELETE', `/api/chat/messages/${String(target.id)}`)).statusCode).toBe(204);
    for (const c of [dan, eve]) await c.until((m) => m.type === 'chat_deleted' && m.data.id === target.id);
    const late = await listener('late-browser-00006');
    const history = late.messages[0]!;
    expect(history.type === 'chat_history' && history.data.map((m) => m.id)).not.toContain(target.id);

    const again = await staffCall('DELETE', `/api/chat/messages/${String(target.id)}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(CHAT_MESSAGE_NOT_FOUND);
    const log = (await staffCall('GET', '/api/chat/moderation-log')).json();
    expect(log[0]).toMatchObject({ action: 'delete', target: target.id, staffUsername: 'deacon' });
    expect(log[0].detail).toContain('delete me please');
    for (const c of [dan, eve, late]) c.ws.terminate();
  });

  it('refuses a blocked word in any language, whole words only, storing nothing', async () => {
    const saved = await staffCall('PUT', '/api/chat/blocked-words', {
      words: ['  idiota ', 'ДУРАК', 'idiota', ''],
    });
    expect(saved.json()).toEqual({ words: ['idiota', 'ДУРАК'] });
    expect((await staffCall('GET', '/api/chat/blocked-words')).json()).toEqual({
      words: ['idiota', 'ДУРАК'],
    });

    const fay = await listener('fay-browser-000007');
    const before = (await t.db.select().from(chatMessages)).length;
    for (const text of ['¡Eres un idiota!', 'ты дурак']) {
      fay.say(text);
      await fay.until((m) => m.type === 'error');
      expect(fay.messages.at(-1)).toEqual({ type: 'error', message: BLOCKED_WORDS_MESSAGE });
      fay.messages.length = 1;
    }
    expect(await t.db.select().from(chatMessages)).toHaveLength(before);
    fay.say('Los idiotas no');
    await fay.until((m) => m.type === 'chat' && m.data.message === 'Los idiotas no');
    await staffCall('PUT', '/api/chat/blocked-words', { words: [] });
    fay.ws.terminate();
  });

  it.each([
    ['GET', '/api/chat/messages'],
    ['DELETE', '/api/chat/messages/abc'],
    ['POST', '/api/chat/mutes'],
    ['DELETE', '/api/chat/mutes/abc'],
    ['GET', '/api/chat/blocked-words'],
    ['PUT', '/api/chat/blocked-words'],
    ['GET', '/api/chat/moderation-log'],
  ] as const)('%s %s is for staff only', async (method, url) => {
    const res = await t.app.inject({ method, url, payload: method === 'GET' ? undefined : {} });
    expect(res.statusCode).toBe(401);
  });

  it.each([
    ['a mute without a message', 'POST', '/api/chat/mutes', { minutes: 10 }],
    ['a mute of no length', 'POST', '/api/chat/mutes', { messageId: 'x', minutes: 0 }],
    ['a mute of a year', 'POST', '/api/chat/mutes', { messageId: 'x', minutes: 525_600 }],
    ['a mute of half a minute', 'POST', '/api/chat/mutes', { messageId: 'x', minutes: 0.5 }],
    ['a mute of a path', 'POST', '/api/chat/mutes', { messageId: '../x', minutes: 10 }],
    ['words that are not a list', 'PUT', '/api/chat/blocked-words', { words: 'idiota' }],
    ['a blocked word with a NUL', 'PUT', '/api/chat/blocked-words', { words: ['a\u0000b'] }],
    ['a blocked word too long', 'PUT', '/api/chat/blocked-words', { words: ['x'.repeat(101)] }],
    [
      'too many blocked words',
      'PUT',
      '/api/chat/blocked-words',
      { words: Array.from({ length: 501 }, (_, i) => `w${i}`) },
    ],
    ['a message id with a NUL', 'DELETE', '/api/chat/messages/%00', undefined],
    ['a sender with a slash', 'DELETE', '/api/chat/mutes/a%2Fb', undefined],
  ] as const)('answers %s with a clear 400', async (_case, method, url, payload) => {
    const res = await staffCall(method, url, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
  });

  it('answers a mute of an unknown message and an unmute of a sender not muted with 404', async () => {
    expect(
      (await staffCall('POST', '/api/chat/mutes', { messageId: 'nobody', minutes: 10 })).statusCode,
    ).toBe(404);
    expect((await staffCall('DELETE', '/api/chat/mutes/nobody')).statusCode).toBe(404);
  });

  it('keeps every blocked-words body it accepts as a list it can read back, and loses nothing on refusal', async () => {
    await fc.assert(
      fc.asyncProperty(fc.anything(), async (words) => {
        const before = await t.db.select().from(settings);
        const logged = (await t.db.select().from(chatModerationLog)).length;
        const res = await staffCall('PUT', '/api/chat/blocked-words', { words });
        expect([200, 400]).toContain(res.statusCode);
        if (res.statusCode === 400) {
          expect(await t.db.select().from(settings)).toEqual(before);
          expect(await t.db.select().from(chatModerationLog)).toHaveLength(logged);
        } else {
          expect((await staffCall('GET', '/api/chat/blocked-words')).json()).toEqual(res.json());
        }
      }),
      { numRuns: 40 },
    );
  });
});
