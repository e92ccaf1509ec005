/**
 * `<html data-offline>` while the browser says it is offline, set from the page's first script and kept
 * by the browser's own online and offline events. What is marked `data-shown-when="online"` or
 * `"offline"` (online-mark.css, in the page's one stylesheet) shows by it at once: before React has
 * taken the prerendered page over (seconds on a slow phone or a busy machine), and whatever React or a
 * probe is doing after.
 */
export function markOffline(root: HTMLElement = document.documentElement): () => void {
  const mark = () => root.toggleAttribute('data-offline', navigator.onLine === false);
  mark();
  window.addEventListener('online', mark);
  window.addEventListener('offline', mark);
  return () => {
    window.removeEventListener('online', mark);
    window.removeEventListener('offline', mark);
  };
}
