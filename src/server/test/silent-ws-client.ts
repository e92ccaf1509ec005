import { randomBytes } from 'node:crypto';
import net from 'node:net';

/**
 * A browser that stops answering (a laptop asleep): it completes the WebSocket handshake, reads what
 * the station sends, and never answers the close. The close code it was told, and when its socket ended.
 */
export function silentClient(port: number) {
  return new Promise<{ closeCode: () => Promise<number>; ended: Promise<number> }>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let buffer = Buffer.alloc(0);
    let upgraded = false;
    let onClose: (code: number) => void;
    const closeCode = new Promise<number>((r) => (onClose = r));
    const ended = new Promise<number>((r) => socket.on('close', () => r(Date.now())));
    socket.on('error', () => {});
    socket.on('connect', () =>
      socket.write(
        'GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
    );
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!buffer.subarray(0, end).toString().startsWith('HTTP/1.1 101'))
          return reject(new Error('no upgrade'));
        upgraded = true;
        buffer = buffer.subarray(end + 4);
        resolve({ closeCode: () => closeCode, ended });
      }
      // Server frames are unmasked: opcode in the low nibble, 7-bit or 16-bit length.
      while (buffer.length >= 2) {
        let length = buffer[1]! & 0x7f;
        let offset = 2;
        if (length === 126) {
          if (buffer.length < 4) return;
          length = buffer.readUInt16BE(2);
          offset = 4;
        }
        if (buffer.length < offset + length) return;
        if ((buffer[0]! & 0x0f) === 0x8) onClose(buffer.readUInt16BE(offset));
        buffer = buffer.subarray(offset + length);
      }
    });
  });
}
