import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { shownByOnlineMark as shown, startOnlineMark } from '../test/online-mark';

const setOnline = (onLine: boolean, event?: 'online' | 'offline') => {
  vi.stubGlobal('navigator', { ...navigator, onLine });
  if (event) window.dispatchEvent(new Event(event));
};

describe('markOffline', () => {
  let stop = () => {};
  beforeEach(() => {
    // Page content as served, before any script of the page's own has touched it.
    document.body.innerHTML =
      '<span data-shown-when="offline">Offline</span><span data-shown-when="online">High Speed</span>';
  });
  afterEach(() => {
    stop();
    vi.unstubAllGlobals();
    document.body.innerHTML = '';
  });

  it('shows what is marked online while the browser is online, and follows its events at once', () => {
    setOnline(true);
    stop = startOnlineMark();
    expect(document.documentElement.hasAttribute('data-offline')).toBe(false);
    expect(shown()).toEqual(['High Speed']);
    setOnline(false, 'offline');
    expect(document.documentElement.hasAttribute('data-offline')).toBe(true);
    expect(shown()).toEqual(['Offline']);
    setOnline(true, 'online');
    expect(shown()).toEqual(['High Speed']);
  });

  it('marks a page opened offline from the start', () => {
    setOnline(false);
    stop = startOnlineMark();
    expect(shown()).toEqual(['Offline']);
  });
});
