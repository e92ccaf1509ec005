import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageMeta } from '../../../common/page-meta';
import { FALLBACK_STATION } from '../../lib/station';
import { HomePage } from './home-page';

// The home page's chat card loads the socket module once in view (always, in jsdom): let it land
// before the test environment is torn down.
afterEach(() => vi.dynamicImportSettled());

function renderHome() {
  const client = new QueryClient({ defaultOptions: { queries: { enabled: false } } });
  return render(
    <QueryClientProvider client={client}>
      <HomePage />
    </QueryClientProvider>,
  );
}

describe('home page', () => {
  it('sets the title, description, keywords, social tags and canonical link from the fixed texts', () => {
    renderHome();
    const meta = pageMeta(FALLBACK_STATION);
    const content = (selector: string) => document.head.querySelector(selector)?.getAttribute('content');
    expect(document.title).toBe(meta.title);
    expect(content('meta[name="description"]')).toBe(meta.description);
    expect(content('meta[name="keywords"]')).toBe(meta.keywords);
    expect(content('meta[property="og:title"]')).toBe(meta.title);
    expect(content('meta[property="og:image"]')).toBe(`${window.location.origin}/og-image.png`);
    expect(content('meta[property="og:url"]')).toBe(`${window.location.origin}/`);
    expect(document.head.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
      `${window.location.origin}/`,
    );
  });

  it('carries the hidden descriptive text for search engines', () => {
    renderHome();
    expect(screen.getByText(pageMeta(FALLBACK_STATION).hiddenText)).toHaveClass('sr-only');
  });

  it('shows its sections in the order of SPEC.md section 2', async () => {
    const { container } = renderHome();
    // Below the player, each section's code loads on its own (at once here: the page was not prerendered).
    await waitFor(() => expect(container.querySelector('footer')).not.toBeNull());
    await screen.findByText('Go Viral with Faith');
    const headings = [...container.querySelectorAll('h2')].map((h) => h.textContent);
    const order = ["Today's Programs", 'Featured Content', 'Follow the ministry'];
    expect(headings.filter((h) => order.includes(h ?? ''))).toEqual(order);
    const cards = [...container.querySelectorAll('h3')].map((h) => h.textContent);
    expect(cards.indexOf('Go Viral with Faith')).toBeLessThan(cards.indexOf('Mobile Experience'));
    expect(
      container.querySelector('header')!.compareDocumentPosition(container.querySelector('footer')!),
    ).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
  });
});
