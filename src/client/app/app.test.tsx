import { QueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { AppRoutes } from './app';
import { Providers } from './providers';

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
  });

  it("shows the home page at '/' with the breadcrumb 'Radio Ministry'", () => {
    renderAt('/');
    expect(screen.queryByText('Page Not Found')).toBeNull();
    expect(screen.getByText('Radio Ministry')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('heading', { name: "Today's Programs" })).toBeInTheDocument();
  });
});
