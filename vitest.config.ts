import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { availableParallelism } from 'node:os';

// Unit, component and API tests. End-to-end specs have their own config in e2e/.
export default defineConfig({
  plugins: [react()],
  test: {
    // Most files wait on real time (audio at its own pace, processes starting), so two run at once even on two
    // cores; vitest's default of one fewer than the cores would run them one by one there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['src/server/**/*.test.ts', 'src/common/**/*.test.ts'],
          setupFiles: ['src/server/test/setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/client/**/*.test.{ts,tsx}'],
          setupFiles: ['src/client/test/setup.ts'],
          // As the server's: a form's round trip in jsdom waits for the CPU on a shared 2-core machine; a test
          // that fails still fails, only later.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: { name: 'lint', environment: 'node', include: ['lint/**/*.test.ts'], testTimeout: 60_000 },
      },
      {
        extends: true,
        // The server's timeout: npm and the walk over node_modules wait for the CPU on a busy machine.
        test: {
          name: 'scripts',
          environment: 'node',
          include: ['scripts/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
