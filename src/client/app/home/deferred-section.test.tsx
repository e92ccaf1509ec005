import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferredSection } from './deferred-section';

afterEach(() => vi.unstubAllGlobals());

describe('deferredSection', () => {
  it('keeps waiting when its code fails to arrive offline, and loads it once the browser is back online', async () => {
    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    let tries = 0;
    const Section = deferredSection('test', async () => {
      tries++;
      if (navigator.onLine === false) throw new TypeError('Failed to fetch dynamically imported module');
      return { default: () => <p>Section here</p> };
    });
    render(<Section />);
    await vi.waitFor(() => expect(tries).toBe(1));
    // Nothing thrown to React: the page stands, the section waits.
    expect(screen.queryByText('Section here')).toBeNull();
    vi.stubGlobal('navigator', { ...navigator, onLine: true });
    act(() => void window.dispatchEvent(new Event('online')));
    expect(await screen.findByText('Section here', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(tries).toBe(2);
  });
});
