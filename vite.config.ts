import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// Paths the service worker must never answer from a cache: the API, the live stream, uploads, the socket,
// and the newsletter's confirm and unsubscribe pages (each answer is about one link, and it must be fresh).
const NETWORK_ONLY = /^\/(api|stream|uploads|ws|admin|podcast\.xml|newsletter|unsubscribe)(\/|$|\?)/;

// React's renderer, loaded after the first paint and evaluated in a task of its own (src/client/main.tsx).
const REACT_DOM = /[\\/]node_modules[\\/](react-dom|scheduler)[\\/]/;

/**
 * Everything the page needs to start (render-app.tsx and what it imports statically, less what the entry
 * already holds) in one chunk, not the two dozen small shared chunks the bundler would otherwise make of
 * the modules the lazy parts also use: each chunk costs a phone a request and a preload link.
 */
function startupChunk(): {
  plugin: Plugin;
  entry: (id: string) => boolean;
  startup: (id: string) => boolean;
} {
  const entry = new Set<string>();
  const startup = new Set<string>();
  const plugin: Plugin = {
    name: 'startup-chunk',
    apply: 'build',
    buildEnd() {
      const closure = (file: string, skip: Set<string>) => {
        const found = new Set<string>();
        const queue = [...this.getModuleIds()].filter((id) => id.endsWith(file));
        for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
          if (found.has(id) || skip.has(id) || REACT_DOM.test(id)) continue;
          found.add(id);
          queue.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return found;
      };
      for (const id of closure('/src/client/main.tsx', new Set())) entry.add(id);
      for (const id of closure('/src/client/render-app.tsx', entry)) startup.add(id);
    },
  };
  return { plugin, entry: (id) => entry.has(id), startup: (id) => startup.has(id) };
}
const startup = startupChunk();

export default defineConfig(({ isSsrBuild }) => ({
  root: 'src/client',
  publicDir: 'public',
  // The prerender build (scripts/prerender.mjs) is one self-contained module for Node.
  ssr: { noExternal: true },
  plugins: [
    react(),
    tailwindcss(),
    !isSsrBuild && startup.plugin,
    !isSsrBuild &&
      VitePWA({
        strategies: 'generateSW',
        registerType: 'autoUpdate',
        // main.tsx registers /sw.js itself, in production builds only (src/client/lib/register-service-worker.ts).
        injectRegister: false,
        includeAssets: ['logo.svg', 'icons/apple-touch-icon.png'],
        manifest: {
          // The station's name is runtime configuration; the installed app carries a generic one.
          name: 'Radio Ministry - Live Christian Radio',
          short_name: 'Radio Ministry',
          description: 'Live Christian radio: worship, sermons, devotions and prayer, streaming 24/7.',
          start_url: '/',
          scope: '/',
          display: 'standalone',
          background_color: '#172554',
          theme_color: '#1e3a8a',
          icons: [
            { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
            { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
            { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          ],
        },
        workbox: {
          // The built index.html is a template the server fills with the station's details: never precache it.
          // The manifest, its icons and includeAssets are added by the plugin itself.
          globPatterns: ['**/*.{js,css}'],
          // The app shell only: staff screens and the audio decoders are fetched when used (and cached below),
          // not downloaded in the background by every listener's phone.
          globIgnores: [
            '**/index.html',
            'og-image.png',
            'assets/admin-*.js',
            'assets/listener-charts-*.js',
            'assets/*decoder*.js',
            'assets/WASMAudioDecoderWorker-*.js',
            'assets/{flac,ogg-vorbis,opus,synaudio}-*.js',
          ],
          navigateFallback: null,
          navigateFallbackDenylist: [NETWORK_ONLY],
          cleanupOutdatedCaches: true,
          runtimeCaching: [
            {
              // Hashed build files never change: whatever was not precached is kept once used.
              urlPattern: ({ url }) => url.pathname.startsWith('/assets/'),
              handler: 'CacheFirst',
              options: { cacheName: 'assets', expiration: { maxEntries: 60 } },
            },
            {
              // Pages come fresh from the server (station name, 404 status); the last copy serves offline.
              // NETWORK_ONLY is written out again: Workbox copies this function into sw.js as text, where
              // no constant of this file exists.
              urlPattern: ({ request, url }) =>
                request.mode === 'navigate' &&
                !/^\/(api|stream|uploads|ws|admin|podcast\.xml|newsletter|unsubscribe)(\/|$|\?)/.test(
                  url.pathname,
                ),
              handler: 'NetworkFirst',
              options: { cacheName: 'pages', networkTimeoutSeconds: 4, expiration: { maxEntries: 4 } },
            },
          ],
        },
      }),
  ],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    copyPublicDir: !isSsrBuild,
    sourcemap: true,
    rolldownOptions: {
      // Building a zod schema has no side effects: a module that only needs a constant beside a schema
      // (e.g. ADMIN_TOKEN_KEY) must not pull zod's runtime into the home page.
      treeshake: { manualPureFunctions: ['z'] },
      output: {
        codeSplitting: {
          groups: [
            { name: 'entry', test: startup.entry, priority: 3 },
            { name: 'react-dom', test: REACT_DOM, priority: 2 },
            { name: 'startup', test: startup.startup, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:5000',
      '/ws': { target: 'ws://localhost:5000', ws: true },
      '/stream': 'http://localhost:5000',
    },
  },
}));
