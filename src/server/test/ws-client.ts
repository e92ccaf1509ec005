import type { FastifyInstance } from 'fastify';
import { serverMessageSchema, type ServerMessage } from '../../common/ws.js';

/**
 * Opens /ws on a test app and collects the parsed server messages, listening from the start (the server
 * speaks first). `types` keeps only the messages a test is about.
 */
export async function connectWS(
  app: FastifyInstance,
  types?: ServerMessage['type'][],
  from: { browser?: string; address?: string } = {},
) {
  const messages: ServerMessage[] = [];
  const waiters: (() => void)[] = [];
  const ws = await app.injectWS(
    from.browser ? `/ws?browser=${encodeURIComponent(from.browser)}` : '/ws',
    // The request's address is its socket's: a stand-in socket gives each test listener its own.
    (from.address ? { socket: { remoteAddress: from.address } } : {}) as never,
    {
      onInit: (socket) =>
        socket.on('message', (data: Buffer) => {
          const message = serverMessageSchema.parse(JSON.parse(data.toString()));
          if (types && !types.includes(message.type)) return;
          messages.push(message);
          for (const w of waiters.splice(0)) w();
        }),
    },
  );
  return {
    ws,
    messages,
    async next(count = messages.length + 1) {
      while (messages.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
      return messages[count - 1]!;
    },
  };
}
