// Owns: Programming, the one way the engine asks what plays (decision 026), and the library back to back.
// Must not: know audio or the schedule's rules; the schedule implements it, with a faked clock in its tests.
import type { LibraryItem, LibraryProvider } from './library.js';

/** One item to air, as the schedule answers. Times are wall-clock epoch milliseconds. */
export interface Airing {
  item: LibraryItem;
  /** It is faded out at this time whatever is left of it (a programme's hard start or end); none: it plays out. */
  endsBy?: number | null;
}

/**
 * What the engine asks the station's schedule: what plays next, and from when. The engine knows nothing of
 * playlists or programmes; the schedule knows nothing of audio, so its rules run with a faked clock.
 */
export interface Programming {
  /**
   * What airs from `from`, when what plays before it ends then (or now, when nothing plays). Null: nothing is
   * there to play, and the station's fallback plays.
   */
  next(from: number): Promise<Airing | null>;
  /**
   * The first time after `from` and no later than `to` at which what airs must change, whatever plays (a
   * programme that starts or ends on time). Asked again every second, so a schedule change applies at once.
   */
  hardChangeBetween(from: number, to: number): Promise<number | null>;
  /** An item went on the air at `at`: what the rotation rules remember. */
  aired(item: LibraryItem, at: number): void;
}

export type PlayOrder = 'in_order' | 'shuffle';

/**
 * The library back to back, in order or shuffled, never on a schedule: what the station plays until its
 * schedule is wired in, and what tests drive with a folder of files.
 */
export class LibraryProgramming implements Programming {
  private readonly providers: LibraryProvider[];
  private lastPath: string | null = null;
  private shuffleBag: string[] = [];

  constructor(
    providers: LibraryProvider[],
    private readonly order: PlayOrder = 'in_order',
  ) {
    this.providers = [...providers];
  }

  addSource(provider: LibraryProvider): void {
    this.providers.push(provider);
  }

  async next(): Promise<Airing | null> {
    const lists = await Promise.all(
      this.providers.map((provider) => provider().catch(() => [] as LibraryItem[])),
    );
    const items = lists.flat();
    if (!items.length) return null;
    const item = this.pick(items);
    this.lastPath = item.path;
    return { item };
  }

  async hardChangeBetween(): Promise<number | null> {
    return null;
  }

  aired(): void {}

  private pick(items: LibraryItem[]): LibraryItem {
    const byPath = new Map(items.map((item) => [item.path, item]));
    if (this.order === 'shuffle') {
      this.shuffleBag = this.shuffleBag.filter((path) => byPath.has(path) && path !== this.lastPath);
      if (this.shuffleBag.length === 0)
        this.shuffleBag = items
          .map((item) => item.path)
          .filter((p) => p !== this.lastPath || items.length === 1);
      const [path] = this.shuffleBag.splice(Math.floor(Math.random() * this.shuffleBag.length), 1);
      return byPath.get(path!)!;
    }
    const at = items.findIndex((item) => item.path === this.lastPath);
    return items[(at + 1) % items.length]!;
  }
}
