import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { connectWS } from '../../test/ws-client.js';
import { FloodLimit } from './flood-limit.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
const chatTypes = ['chat', 'chat_history', 'error'] as const;
const stored = () => t.db.select().from(chatMessages);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('chat on /ws', () => {
  it('sends history on connect and every message to everyone, stored, trimmed, Anonymous by default', async () => {
    const alice = await connectWS(t.app, [...chatTypes]);
    const bob = await connectWS(t.app, [...chatTypes]);
    expect(await alice.next(1)).toEqual({ type: 'chat_history', data: [] });
    await bob.next(1);

    alice.ws.send(JSON.stringify({ type: 'chat', username: '  ', message: '  Grace and peace  ' }));
    const heard = await bob.next(2);
    expect(heard).toMatchObject({
      type: 'chat',
      data: { username: 'Anonymous', message: 'Grace and peace' },
    });
    expect(await alice.next(2)).toEqual(heard);
    expect(await stored()).toHaveLength(1);

    const carol = await connectWS(t.app, [...chatTypes]);
    const history = await carol.next(1);
    expect(history.type === 'chat_history' && history.data.map((m) => m.message)).toEqual([
      'Grace and peace',
    ]);
    for (const c of [alice, bob, carol]) c.ws.terminate();
  });

  it.each([
    ['a blank message', { username: 'Ann', message: '   ' }, 'Please enter a message.'],
    [
      'a message over 500 characters',
      { username: 'Ann', message: 'x'.repeat(501) },
      'at most 500 characters',
    ],
    ['a NUL character', { username: 'Ann', message: 'a\u0000b' }, 'cannot be sent'],
  ])('answers %s with an error to the sender only, storing nothing', async (_case, body, reason) => {
    const sender = await connectWS(t.app, [...chatTypes]);
    const other = await connectWS(t.app, [...chatTypes]);
    await sender.next(1);
    await other.next(1);
    const before = (await stored()).length;
    sender.ws.send(JSON.stringify({ type: 'chat', ...body }));
    const answer = await sender.next(2);
    expect(answer.type === 'error' && answer.message).toContain(reason);
    expect(await stored()).toHaveLength(before);
    expect(other.messages).toHaveLength(1);
    sender.ws.terminate();
    other.ws.terminate();
  });

  it('cuts a long username to 32 characters', async () => {
    const c = await connectWS(t.app, [...chatTypes]);
    await c.next(1);
    c.ws.send(JSON.stringify({ type: 'chat', username: 'N'.repeat(40), message: 'hello' }));
    const m = await c.next(2);
    expect(m.type === 'chat' && m.data.username).toBe('N'.repeat(32));
    c.ws.terminate();
  });

  it('tells a flooding sender to wait, and the hub stays up for others', async () => {
    // A station of its own: the other tests' messages come from the same address.
    const fresh = await createTestApp();
    const c = await connectWS(fresh.app, [...chatTypes]);
    await c.next(1);
    for (let i = 0; i < 4; i++)
      c.ws.send(JSON.stringify({ type: 'chat', username: 'Fast', message: `m${i}` }));
    const answers = await Promise.all([2, 3, 4, 5].map((n) => c.next(n)));
    expect(answers.filter((a) => a.type === 'chat')).toHaveLength(3);
    const refusal = answers.find((a) => a.type === 'error');
    expect(refusal?.type === 'error' && refusal.message).toMatch(/too quickly/);
    c.ws.terminate();
    await fresh.close();
  });

  it('answers any chat frame with a message or an error, never a crash', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ username: fc.string({ unit: 'binary' }), message: fc.string({ unit: 'binary' }) }),
        async (body) => {
          const c = await connectWS(t.app, [...chatTypes]);
          await c.next(1);
          c.ws.send(JSON.stringify({ type: 'chat', ...body }));
          const answer = await c.next(2);
          expect(['chat', 'error']).toContain(answer.type);
          c.ws.terminate();
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('FloodLimit', () => {
  it('lets 3 messages through in 2 s, then asks for 10 s of quiet', () => {
    let now = 0;
    const limit = new FloodLimit(() => now);
    expect([limit.take('a'), limit.take('a'), limit.take('a')]).toEqual([0, 0, 0]);
    expect(limit.take('a')).toBe(10_000);
    now = 5_000;
    expect(limit.take('a')).toBe(5_000);
    now = 10_001;
    expect(limit.take('a')).toBe(0);
    expect(limit.take('b')).toBe(0);
  });
});
