import '@testing-library/jest-dom/vitest';
import { act, cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi, type MockInstance } from 'vitest';
import { clearToasts } from '../components/ui/use-toast';
// The page loads the toast area lazily; loaded once here, a test's first toast shows as soon as it would
// in a page whose toast code has arrived, instead of waiting on the module's first transform.
import '../components/ui/toaster';

// On a shared 2-core machine a form's whole round trip (typing, the overlap check, the save) can take longer
// than the library's 1 s default for findBy and waitFor, and longer than 5 s beside another test file and the
// other CI jobs (docs/decisions/037): a failing test still fails, only later.
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  // The toast store lives at module level; each test starts with no toast.
  act(() => clearToasts());
});

// STYLE.md habit 8: a test that prints console.error fails.
let errors: unknown[][] = [];
let consoleError: MockInstance<typeof console.error> | undefined;
beforeEach(() => {
  errors = [];
  consoleError = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  // Kept by reference: a test calling vi.restoreAllMocks() must not break this check.
  consoleError?.mockRestore();
  if (errors.length > 0)
    throw new Error(`console.error was called: ${errors.map((a) => a.join(' ')).join('\n')}`);
});
