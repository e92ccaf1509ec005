import { defineConfig } from 'vitest/config';

// End-to-end specs: the built server in a child process, driven by the system Chromium.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // Two files at once: each starts its own station and browser on free ports and mostly waits on real time.
    maxWorkers: 2,
    // A spec that fails is run once more (as Playwright's own runner does on CI): a shared 2-core machine
    // sometimes starves a browser for seconds. A spec that fails twice fails the run; the admin and early-form
    // specs log what the station or the page showed on each failure.
    retry: 1,
  },
});
