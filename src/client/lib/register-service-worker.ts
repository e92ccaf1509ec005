/// <reference types="vite-plugin-pwa/client" />

/** Registers the app-shell service worker (production builds only; main.tsx decides). */
export function registerServiceWorker() {
  // Loaded on demand so the registration code does not delay the first render.
  void import('virtual:pwa-register').then(({ registerSW }) => registerSW({ immediate: true }));
}
