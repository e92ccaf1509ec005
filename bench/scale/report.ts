// What bench/scale prints: chat on one instance beside two web instances, then the listener groups and the
// station's own listener figure; true when the targets that must hold did.
import type { ChatFigures } from './chat';
import type { GroupFigures } from './listeners';

export interface ListenerCount {
  /** `listeners` of /api/radio/stats and of /api/radio/current. */
  stats: number;
  current: number;
}

export interface Report {
  clients: number;
  chat: ChatFigures[];
  listened: GroupFigures[];
  bitrateKbps: number;
  windowSeconds: number;
  /** How far the broadcaster's stream clock moved over about the same window. */
  clockSeconds: number;
  webFigures: ({ name: string } & ListenerCount)[];
  /** The relay's own count of its /stream listeners (status-json.xsl). */
  relayOwn: number;
  senderCount: number;
  rate: number;
  warmupSeconds: number;
  turnSeconds: number;
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
};
const count = (n: number) => n.toLocaleString('en-GB');
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
const pct = (n: number) => `${(n * 100).toFixed(1)} %`;

function table(header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => console.log(cells.map((c, i) => c.padEnd(widths[i]!)).join('  '));
  line(header);
  rows.forEach(line);
}

export function report(r: Report): boolean {
  const { chat, listened } = r;
  console.log(`\nChat: ${count(r.clients)} clients to each target, ${r.rate} messages a second`);
  const rows: [string, (f: ChatFigures) => string][] = [
    [
      'clients connected (dropped)',
      (f) => `${count(f.connected)} (${f.dropped})${f.urls > 1 ? `, split over ${f.urls}` : ''}`,
    ],
    ['delivered', (f) => pct(f.receipts / f.expected)],
    ['  receipts / clients x messages', (f) => `${count(f.receipts)} / ${count(f.expected)}`],
    [
      'latency to the last client p50 / p99 / max',
      (f) =>
        `${ms(percentile(f.latencies, 50))} / ${ms(percentile(f.latencies, 99))} / ${ms(Math.max(...f.latencies))}`,
    ],
    [
      '  to the first client p50 / p99',
      (f) => `${ms(percentile(f.firstLatencies, 50))} / ${ms(percentile(f.firstLatencies, 99))}`,
    ],
    ['messages no client received', (f) => String(f.missing)],
    ['error frames to senders (senders closed)', (f) => `${f.senderErrors} (${f.sendersClosed})`],
    ['station processes CPU in its turns (cores)', (f) => f.cores.toFixed(2)],
  ];
  table(
    ['', ...chat.map((f) => f.label)],
    rows.map(([name, cell]) => [name, ...chat.map(cell)]),
  );
  console.log(`(latencies in ms, from the sender's send to the receipt)`);
  console.log(
    `${r.senderCount} senders per target on 127.0.0.2-${r.senderCount + 1}, taking turns (on the web instances, ` +
      `every other message goes in at the other instance); ${r.warmupSeconds} s of warm-up each not counted; ` +
      `alternating turns of ${r.turnSeconds} s, one instance first.`,
  );
  for (const f of chat) console.log(`Moderation, ${f.label}: ${f.moderation}.`);
  const [one, two] = chat;
  if (one && two)
    console.log(
      `p99 to the last client: two web instances ${ms(percentile(two.latencies, 99))} ms, ` +
        `one instance ${ms(percentile(one.latencies, 99))} ms`,
    );

  console.log(
    `\nListeners: bitrate over ${r.windowSeconds.toFixed(0)} s (the whole chat measurement) as a share of the ` +
      `stream's ${r.bitrateKbps} kbps`,
  );
  table(
    ['group', 'listeners', 'connected', 'min / p5 / median', 'below 95 %', 'failed', 'dropped'],
    listened.map((g) => [
      g.name,
      String(g.count),
      String(g.connected),
      `${pct(Math.min(...g.shares))} / ${pct(percentile(g.shares, 5))} / ${pct(percentile(g.shares, 50))}`,
      String(g.shares.filter((s) => !(s >= 0.95)).length),
      String(g.failed),
      String(g.dropped),
    ]),
  );
  console.log(
    `The broadcaster's stream clock moved ${r.clockSeconds.toFixed(1)} s in that time ` +
      `(${pct(r.clockSeconds / r.windowSeconds)}; no listener receives more than it sends).`,
  );
  const connected = listened.reduce((n, g) => n + g.connected, 0);
  console.log(
    `Station's listener figure: ${r.webFigures.map((w) => `${w.name} /api/radio/stats ${w.stats}, /current ${w.current}`).join('; ')}`,
  );
  console.log(
    `Connected: ${connected} (${listened.map((g) => `${g.name} ${g.connected}`).join(' + ')}); the relay's own ` +
      `count ${r.relayOwn}`,
  );

  const delivered = chat.every(
    (f) =>
      f.receipts >= f.expected &&
      f.missing === 0 &&
      f.senderErrors === 0 &&
      f.sendersClosed === 0 &&
      f.connected >= r.clients,
  );
  const relay = listened.find((g) => g.name === 'relay');
  const relayBelow = relay ? relay.shares.filter((s) => !(s >= 0.95)).length : NaN;
  const counted = r.webFigures.every((w) => w.stats === connected);
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log('\nTargets:');
  console.log(`  every message to every client, on both:     ${verdict(delivered)}`);
  console.log(`  relay listeners below 95 %: ${relayBelow}                ${verdict(relayBelow === 0)}`);
  console.log(`  listener figure = listeners connected:       ${verdict(counted)}`);
  return delivered && relayBelow === 0;
}
