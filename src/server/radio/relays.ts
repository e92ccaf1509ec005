// Owns: the Icecast relays pulling our /stream: their listener counts, read from their status, and the pick.
// Must not: carry audio or store figures; it only reads their counts and picks one.
/** A relay's figures are read again once they are this old. */
const RELAY_STATUS_MS = 5_000;
const RELAY_TIMEOUT_MS = 2_000;

export type RelayPick = 'least-listeners' | 'round-robin';

interface RelayLog {
  warn(message: string): void;
  info(message: string): void;
}

/**
 * The Icecast relays pulling our /stream (RELAY_URLS): how many listen on each, read from each relay's
 * `status-json.xsl` (kept a few seconds), and which one the next listener is sent to.
 */
export class RelayDirectory {
  /** Listeners on each relay's mount; null while it does not answer (it then counts 0 and is not chosen). */
  private readonly counts = new Map<string, number | null>();
  private readAt = 0;
  private reading: Promise<void> | null = null;
  private turn = 0;

  constructor(
    readonly urls: string[],
    private readonly options: {
      pick: RelayPick;
      log: RelayLog;
      /** Each relay's address as this instance reaches it (RELAY_STATUS_URLS), in the order of `urls`. */
      statusUrls?: string[];
      statusMs?: number;
      timeoutMs?: number;
    },
  ) {}

  /** Listeners on every relay together. */
  async listeners(): Promise<number> {
    await this.fresh();
    let total = 0;
    for (const count of this.counts.values()) total += count ?? 0;
    return total;
  }

  /**
   * The stream address for the next listener: the relay with the fewest listeners (RELAY_PICK=least-listeners)
   * or the next in turn (round-robin), among those answering; undefined when there are no relays.
   */
  pick(): string | undefined {
    if (this.urls.length === 0) return undefined;
    void this.fresh().catch(() => {});
    const answering = this.urls.filter((url) => this.counts.get(url) !== null);
    // Until the first reading, or when none answers, every relay is a candidate: better than no audio.
    const candidates = answering.length ? answering : this.urls;
    if (this.options.pick === 'least-listeners' && this.counts.size) {
      const fewest = Math.min(...candidates.map((url) => this.counts.get(url) ?? 0));
      const least = candidates.filter((url) => (this.counts.get(url) ?? 0) === fewest);
      return least[this.turn++ % least.length];
    }
    return candidates[this.turn++ % candidates.length];
  }

  private fresh(): Promise<void> {
    if (Date.now() - this.readAt < (this.options.statusMs ?? RELAY_STATUS_MS)) return Promise.resolve();
    this.reading ??= Promise.all(this.urls.map((url, i) => this.read(url, i))).then(() => {
      this.readAt = Date.now();
      this.reading = null;
    });
    return this.reading;
  }

  private async read(url: string, index: number): Promise<void> {
    const before = this.counts.get(url);
    try {
      const statusUrl = this.options.statusUrls?.[index] ?? url;
      const count = await relayListeners(statusUrl, this.options.timeoutMs ?? RELAY_TIMEOUT_MS);
      if (before === null) this.options.log.info(`relay ${url} answers again`);
      this.counts.set(url, count);
    } catch (error) {
      // Logged once when it stops answering, not at every reading.
      if (before !== null)
        this.options.log.warn(
          `relay ${url} did not answer its status (${(error as Error).message}); counted as 0`,
        );
      this.counts.set(url, null);
    }
  }
}

interface IcecastSource {
  listenurl?: string;
  listeners?: number;
}

/** Listeners on the relay's mounts of the stream, from its Icecast `status-json.xsl`; 0 while none is up. */
export async function relayListeners(streamUrl: string, timeoutMs = RELAY_TIMEOUT_MS): Promise<number> {
  const url = new URL(streamUrl);
  const response = await fetch(new URL('/status-json.xsl', url.origin), {
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`status answered ${response.status}`);
  }
  const status = (await response.json()) as { icestats?: { source?: IcecastSource | IcecastSource[] } };
  const source = status.icestats?.source;
  const sources = Array.isArray(source) ? source : source ? [source] : [];
  // Icecast writes listenurl with its own configured hostname: the mount path is what identifies it. Every
  // bitrate's mount (/stream/64 beside /stream) counts.
  const ours = (path: string) => path === url.pathname || path.startsWith(`${url.pathname}/`);
  return sources
    .filter((s) => s.listenurl && ours(new URL(s.listenurl).pathname))
    .reduce((sum, s) => sum + (typeof s.listeners === 'number' ? s.listeners : 0), 0);
}
