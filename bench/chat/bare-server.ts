// The reference: a bare `ws` chat server with nothing else. Each chat frame from a sender becomes the
// station's message shape, serialised once and sent as that one string to every open client. No
// persistence, moderation or limits.
import { WebSocketServer, type WebSocket } from 'ws';

export type FromBare = { type: 'listening'; port: number };

let nextId = 1;
const server = new WebSocketServer({
  host: '127.0.0.1',
  port: 0,
  maxPayload: 64 * 1024,
  clientTracking: false,
});
const clients = new Set<WebSocket>();

server.on('connection', (socket) => {
  clients.add(socket);
  socket.on('close', () => clients.delete(socket));
  socket.on('error', () => socket.terminate());
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    if (isBinary) return;
    let incoming: { type?: unknown; username?: unknown; message?: unknown };
    try {
      incoming = JSON.parse(data.toString()) as typeof incoming;
    } catch {
      return;
    }
    if (incoming.type !== 'chat' || typeof incoming.message !== 'string') return;
    const text = JSON.stringify({
      type: 'chat',
      data: {
        id: String(nextId++),
        username: typeof incoming.username === 'string' ? incoming.username : 'Anonymous',
        message: incoming.message,
        createdAt: new Date().toISOString(),
      },
    });
    for (const client of clients) if (client.readyState === client.OPEN) client.send(text);
  });
});

server.on('listening', () => {
  const address = server.address();
  if (typeof address === 'object' && address) process.send!({ type: 'listening', port: address.port });
});
process.on('disconnect', () => process.exit(0));
