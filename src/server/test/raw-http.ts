import { connect } from 'node:net';

export interface RawAnswer {
  /** The status line, e.g. 'HTTP/1.1 400 Bad Request'. */
  statusLine: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `text` as it stands on a new TCP connection (no client library tidies the request line or the
 * Host) and reads the answer: to the end of the connection, or only its head for an answer that streams.
 */
export function rawRequest(port: number, text: string, { headOnly = false } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    const finish = () => {
      const end = received.indexOf('\r\n\r\n');
      const head = end === -1 ? received : received.slice(0, end);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ statusLine, headers, body: end === -1 ? '' : received.slice(end + 4) });
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (headOnly && received.includes('\r\n\r\n')) {
        socket.destroy();
        finish();
      }
    });
    socket.on('end', finish);
    socket.on('error', reject);
  });
}
