/**
 * Registers the generated app-shell service worker (production builds only; main.tsx decides).
 * Registered directly rather than through vite-plugin-pwa's virtual module: that module brings
 * workbox-window (2.8 KB gzipped) into the home page's budget, and with registerType 'autoUpdate'
 * the worker already takes over by itself (skipWaiting + clientsClaim).
 */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // No offline shell this time (e.g. a private window); the site works the same.
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
