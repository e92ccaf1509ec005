import { afterEach, beforeEach, vi } from 'vitest';

// STYLE.md habit 8: a test that prints console.error fails.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (errors.length > 0)
    throw new Error(`console.error was called: ${errors.map((a) => a.join(' ')).join('\n')}`);
});
