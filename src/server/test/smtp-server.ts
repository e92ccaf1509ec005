import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the SMTP server took it: the envelope, the headers (lower-case names) and its text parts. */
export interface ReceivedMail {
  envelopeTo: string[];
  headers: Map<string, string>;
  /** Decoded body of each text part by type: 'text/plain', 'text/html'. */
  parts: Record<string, string>;
}

interface Entity {
  headers: Map<string, string>;
  body: string;
}

function parseEntity(raw: string): Entity {
  const split = raw.indexOf('\r\n\r\n');
  const head = (split < 0 ? raw : raw.slice(0, split)).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: split < 0 ? '' : raw.slice(split + 4) };
}

function decode(body: string, encoding = '7bit'): string {
  if (/^base64$/i.test(encoding)) return Buffer.from(body, 'base64').toString('utf8');
  if (/^quoted-printable$/i.test(encoding)) {
    const bytes = body
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** The text parts of a message, multiparts walked through (enough for what the station sends). */
function textParts(entity: Entity): Record<string, string> {
  const type = entity.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const parts = entity.body
      .split(`--${boundary}`)
      .slice(1, -1)
      .map((part) => parseEntity(part.replace(/^\r\n/, '')));
    return Object.assign({}, ...parts.map(textParts)) as Record<string, string>;
  }
  const mime = type.split(';')[0]!.trim().toLowerCase();
  return { [mime]: decode(entity.body, entity.headers.get('content-transfer-encoding')) };
}

/**
 * A real SMTP server on 127.0.0.1 (a port the kernel picks) that keeps what it receives. `refuse` makes it
 * refuse every recipient, as a server that will not deliver does, `refuseOnly` the addresses in it; each
 * refused address is noted in `refusals`.
 */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  const control = { refuse: false, refuseOnly: new Set<string>(), refusals: [] as string[] };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 1000,
    onRcptTo(address, _session, callback) {
      if (!control.refuse && !control.refuseOnly.has(address.address)) return callback();
      control.refusals.push(address.address);
      const refusal = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
      callback(refusal);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const entity = parseEntity(Buffer.concat(chunks).toString('utf8'));
        received.push({
          envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          headers: entity.headers,
          parts: textParts(entity),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    control,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
