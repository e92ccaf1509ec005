import { QueryClient } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { AppRoutes } from './app';
import { Providers } from './providers';

// The home page's chat card loads the socket module once in view (always, in jsdom): let it land
// before the test environment is torn down.
afterEach(() => vi.dynamicImportSettled());

function renderAt(path: string) {
  const { hook } = memoryLocation({ path });
  // Nothing is fetched: the pages under test need no data to render their frame.
  const queryClient = new QueryClient({ defaultOptions: { queries: { enabled: false } } });
  return render(
    <Providers queryClient={queryClient}>
      <Router hook={hook}>
        <AppRoutes />
      </Router>
    </Providers>,
  );
}

describe('routes', () => {
  it("answers any other path with 'Page Not Found' and a link home", () => {
    renderAt('/no-such-page');
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the live radio' })).toHaveAttribute('href', '/');
    expect(document.title).toMatch(/^Page Not Found/);
  });

  it("leads the header's and footer's in-page anchors to the home page from other pages", () => {
    renderAt('/no-such-page');
    const main = screen.getByRole('navigation', { name: 'Main' });
    expect(within(main).getByRole('link', { name: 'Programs' })).toHaveAttribute('href', '/#programs');
    expect(within(main).getByRole('link', { name: 'Prayer' })).toHaveAttribute('href', '/#prayer');
    expect(
      within(screen.getByRole('contentinfo')).getByRole('link', { name: 'Prayer Requests' }),
    ).toHaveAttribute('href', '/#prayer');
  });

  it("shows the home page at '/' with the breadcrumb 'Radio Ministry'", async () => {
    renderAt('/');
    expect(screen.queryByText('Page Not Found')).toBeNull();
    expect(screen.getByText('Radio Ministry')).toHaveAttribute('aria-current', 'page');
    // The sections below the player load as they come near the screen (in jsdom, at once).
    expect(await screen.findByRole('heading', { name: "Today's Programs" })).toBeInTheDocument();
  });
});
