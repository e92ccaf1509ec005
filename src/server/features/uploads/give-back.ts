/**
 * Hands back to the system the memory glibc's allocator keeps after heavy work (docs/decisions/025, "Freed
 * memory handed back after each turn"). Decoding a picture frees tens of megabytes in blocks under the mmap
 * threshold, between blocks that live on; glibc returns only the free top of its heap by itself, so after a
 * burst of pictures the station held 27 MB it was not using until `malloc_trim` gave them back. Elsewhere
 * (musl, macOS) there is no such call and nothing to do.
 */
type Trim = () => void;

let loading: Promise<Trim | null> | undefined;

async function loadTrim(): Promise<Trim | null> {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  if (process.platform !== 'linux' || !report?.header?.glibcVersionRuntime) return null;
  try {
    // The foreign-function package the station also calls LAME with (radio/lame-library.ts), loaded with the
    // first heavy work.
    const koffi = (await import('koffi')).default;
    const mallocTrim = koffi.load('libc.so.6').func('int malloc_trim(size_t)');
    return () => void mallocTrim(0);
  } catch {
    return null; // no build of the package for this platform: the memory is given back as glibc sees fit
  }
}

/** Gives back what the allocator holds free; a few milliseconds on the event loop. */
export async function giveMemoryBack(): Promise<void> {
  const trim = await (loading ??= loadTrim());
  trim?.();
}
