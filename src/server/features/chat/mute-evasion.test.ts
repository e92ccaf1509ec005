import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../../common/ws.js';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';
import { connectWS } from '../../test/ws-client.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;
let said = 0;
let elsewhere = 0;
/** An address of its own for each bystander, so their flood limits stay apart. */
const another = () => `203.0.113.${++elsewhere}`;

const types: ServerMessage['type'][] = ['chat', 'chat_history', 'error'];

/** A browser on an address (no browser id when `browser` is undefined). */
const open = async (address: string, browser?: string) => {
  const c = await connectWS(t.app, types, { address, ...(browser ? { browser } : {}) });
  await c.next(1);
  const heard = (text: string) => c.messages.some((m) => m.type === 'chat' && m.data.message === text);
  return {
    ...c,
    heard,
    /** Says something and waits for it to come back to this browser (as it does even when muted). */
    async say() {
      const text = `message ${++said}`;
      c.ws.send(JSON.stringify({ type: 'chat', username: 'someone', message: text }));
      for (let n = c.messages.length + 1; !heard(text); n++) {
        const m = await c.next(n);
        if (m.type === 'error') throw new Error(m.message);
      }
      return text;
    },
  };
};

beforeAll(async () => {
  t = await createTestApp();
  staff = (await addStaff(t.db, 'deacon', 'admin')).headers;
});
afterAll(() => t.close());

const muteSenderOf = async (text: string) => {
  const list = (await t.app.inject({ url: '/api/chat/messages', headers: staff })).json() as {
    id: string;
    message: string;
  }[];
  const message = list.find((m) => m.message === text)!;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/chat/mutes',
    headers: staff,
    payload: { messageId: message.id, minutes: 10 },
  });
  expect(res.statusCode).toBe(201);
};

describe('a chat mute', () => {
  // Each case: where the muted sender was, and who speaks after the mute; `heard` is whether others hear it.
  it.each([
    {
      case: 'the muted sender dropping their browser id',
      muted: ['192.0.2.10', 'muted-browser-00010'],
      after: ['192.0.2.10', undefined],
      heard: false,
    },
    {
      case: 'the muted sender with a new browser id',
      muted: ['192.0.2.11', 'muted-browser-00011'],
      after: ['192.0.2.11', 'fresh-browser-00011'],
      heard: false,
    },
    {
      case: 'the muted sender with a new id from another address of their IPv6 /64',
      muted: ['2001:db8:12:1::1', 'muted-browser-00012'],
      after: ['2001:db8:12:1:ffff::2', 'fresh-browser-00012'],
      heard: false,
    },
    {
      case: 'the muted sender on their old id from another network',
      muted: ['192.0.2.13', 'muted-browser-00013'],
      after: ['198.51.100.13', 'muted-browser-00013'],
      heard: false,
    },
    {
      case: 'someone behind the same church NAT who chatted before the mute',
      muted: ['192.0.2.14', 'muted-browser-00014'],
      before: ['192.0.2.14', 'pew-browser-000014'],
      after: ['192.0.2.14', 'pew-browser-000014'],
      heard: true,
    },
    {
      case: 'a new browser on another network',
      muted: ['192.0.2.15', 'muted-browser-00015'],
      after: ['198.51.100.15', 'fresh-browser-00015'],
      heard: true,
    },
    {
      case: 'a new browser in another IPv6 /64',
      muted: ['2001:db8:16:1::1', 'muted-browser-00016'],
      after: ['2001:db8:16:2::1', 'fresh-browser-00016'],
      heard: true,
    },
  ] as {
    case: string;
    muted: [string, string];
    before?: [string, string];
    after: [string, string?];
    heard: boolean;
  }[])('holds or lets through $case', async ({ muted, before, after, heard }) => {
    const bystander = await open(another(), `bystander-${said}-000000`);
    const offender = await open(...muted);
    const earlier = before ? await open(...before) : undefined;
    if (earlier) await earlier.say();
    await muteSenderOf(await offender.say());
    offender.ws.terminate();

    const speaker = await open(...after);
    const text = await speaker.say();
    // The speaker is never told: their message came back to them, with no error.
    expect(speaker.messages.some((m) => m.type === 'error')).toBe(false);
    // Others get what is shared in order: once a later message from elsewhere arrives, the first would have.
    const other = await open(another(), `marker-${said}-000000000`);
    const marker = await other.say();
    for (let n = bystander.messages.length + 1; !bystander.heard(marker); n++) await bystander.next(n);
    expect(bystander.heard(text)).toBe(heard);
    const late = await open(another(), `late-${said}-00000000000`);
    const history = late.messages[0]!;
    expect(history.type === 'chat_history' && history.data.some((m) => m.message === text)).toBe(heard);
    for (const c of [bystander, speaker, other, late, earlier]) c?.ws.terminate();
  });
});
