import { screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shownByOnlineMark as shown, startOnlineMark } from '../../../test/online-mark';
import { ConnectionIndicator } from './connection-indicator';

const setOnline = (onLine: boolean, event: 'online' | 'offline') => {
  vi.stubGlobal('navigator', { ...navigator, onLine });
  window.dispatchEvent(new Event(event));
};

describe('ConnectionIndicator', () => {
  let stop = () => {};
  afterEach(() => {
    stop();
    vi.unstubAllGlobals();
    document.body.innerHTML = '';
  });

  it('as served, before React has taken the page over, follows offline and online at once', () => {
    // The prerendered page's indicator: plain HTML, no React behind it yet.
    document.body.innerHTML = renderToString(<ConnectionIndicator quality="slow" />);
    stop = startOnlineMark();
    expect(shown()).toEqual(['Slow Connection']);
    setOnline(false, 'offline');
    expect(shown()).toEqual(['Offline']);
    setOnline(true, 'online');
    expect(shown()).toEqual(['Slow Connection']);
  });

  it('is one live region, whose shown badge carries SPEC.md colours and words', () => {
    document.body.innerHTML = renderToString(<ConnectionIndicator quality="fast" />);
    stop = startOnlineMark();
    expect(screen.getByRole('status')).toContainElement(screen.getByText('Offline'));
    expect(screen.getByText('High Speed')).toBeVisible();
    expect(screen.getByText('High Speed').closest('[data-status]')).toHaveClass('bg-emerald-700');
    expect(screen.getByText('Offline')).not.toBeVisible();
    setOnline(false, 'offline');
    expect(screen.getByText('Offline')).toBeVisible();
    expect(screen.getByText('Offline').closest('[data-status]')).toHaveClass('bg-red-600');
    expect(screen.getByText('High Speed')).not.toBeVisible();
  });
});
