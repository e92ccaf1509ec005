import type { MediaItem } from '../../../common/library';
import { whyRefused } from './refusal';

export type UploadState = 'waiting' | 'uploading' | 'done' | 'failed';

export interface Upload {
  id: number;
  name: string;
  /** 0 to 1, of the bytes sent. */
  progress: number;
  state: UploadState;
  /** Why the station refused it, in its own words when it gave them. */
  error?: string;
}

type Send = (file: File, onProgress: (fraction: number) => void) => Promise<MediaItem>;

/**
 * Files staff dropped or picked, sent one after another (the station analyses one at a time anyway), each
 * with its own progress and its own refusal. A plain store outside React, so uploads under way keep their
 * place in the list when staff look at another tab and come back.
 */
export class UploadQueue {
  private uploads: readonly Upload[] = [];
  private readonly files = new Map<number, File>();
  private nextId = 1;
  private sending = false;
  private readonly listeners = new Set<() => void>();
  private readonly uploadedListeners = new Set<(item: MediaItem) => void>();

  constructor(private readonly send: Send) {}

  getSnapshot = (): readonly Upload[] => this.uploads;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Told of each file the station took in (the list then shows it). */
  onUploaded(listener: (item: MediaItem) => void): () => void {
    this.uploadedListeners.add(listener);
    return () => this.uploadedListeners.delete(listener);
  }

  add(files: Iterable<File>): void {
    const added = [...files].map((file) => {
      const id = this.nextId++;
      this.files.set(id, file);
      return { id, name: file.name, progress: 0, state: 'waiting' as const };
    });
    if (added.length === 0) return;
    this.set([...this.uploads, ...added]);
    void this.sendWaiting();
  }

  /** Takes the finished and refused ones off the list. */
  clearFinished(): void {
    this.set(this.uploads.filter((u) => u.state === 'waiting' || u.state === 'uploading'));
  }

  private async sendWaiting(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    for (let next = this.firstWaiting(); next; next = this.firstWaiting()) {
      const { id } = next;
      const file = this.files.get(id)!;
      this.patch(id, { state: 'uploading' });
      try {
        const item = await this.send(file, (progress) => this.patch(id, { progress }));
        this.patch(id, { state: 'done', progress: 1 });
        for (const listener of this.uploadedListeners) listener(item);
      } catch (error) {
        this.patch(id, { state: 'failed', error: whyRefused(error, 'The file was not uploaded.') });
      }
      this.files.delete(id);
    }
    this.sending = false;
  }

  private firstWaiting(): Upload | undefined {
    return this.uploads.find((u) => u.state === 'waiting');
  }

  private patch(id: number, change: Partial<Upload>): void {
    this.set(this.uploads.map((u) => (u.id === id ? { ...u, ...change } : u)));
  }

  private set(next: readonly Upload[]): void {
    this.uploads = next;
    for (const listener of this.listeners) listener();
  }
}
