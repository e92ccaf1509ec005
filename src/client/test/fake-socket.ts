/**
 * A browser WebSocket the test drives (open, deliver, close), handed to WsClient's `createSocket`; it
 * records what was sent. jsdom has no socket server: the real one is exercised end to end in e2e/.
 */
export class FakeSocket {
  static all: FakeSocket[] = [];
  static latest = () => FakeSocket.all.at(-1)!;
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  constructor(public url = '') {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  deliver(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  /** What was sent, parsed. */
  sentMessages(): unknown[] {
    return this.sent.map((data) => JSON.parse(data) as unknown);
  }
}
