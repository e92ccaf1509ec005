import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Share } from './share';
import { Toaster } from './ui/toaster';

const URL_TO_SHARE = 'https://radio.example.org/';

function renderShare() {
  const onShared = vi.fn();
  render(
    <>
      <Share url={URL_TO_SHARE} title="Grace Live Radio Live" text="Listen live" onShared={onShared} />
      <Toaster />
    </>,
  );
  return onShared;
}

function setNavigator(key: 'share' | 'clipboard', value: unknown) {
  Object.defineProperty(window.navigator, key, { value, configurable: true, writable: true });
}

afterEach(() => {
  setNavigator('share', undefined);
  setNavigator('clipboard', undefined);
});

describe('Share', () => {
  it("offers native share when the browser has it: 'Shared successfully!'", async () => {
    const share = vi.fn(() => Promise.resolve());
    setNavigator('share', share);
    const onShared = renderShare();
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(share).toHaveBeenCalledWith({
      title: 'Grace Live Radio Live',
      text: 'Listen live',
      url: URL_TO_SHARE,
    });
    expect(await screen.findByText('Shared successfully!')).toBeInTheDocument();
    expect(onShared).toHaveBeenCalledWith('native');
  });

  it('ignores native share errors silently (e.g. the listener cancels)', async () => {
    setNavigator(
      'share',
      vi.fn(() => Promise.reject(new DOMException('cancelled', 'AbortError'))),
    );
    const onShared = renderShare();
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(screen.queryByRole('status')).toBeNull();
    expect(onShared).not.toHaveBeenCalled();
  });

  it('has no native share button when the browser lacks it', () => {
    renderShare();
    expect(screen.queryByRole('button', { name: 'Share' })).toBeNull();
  });

  it("copies the link: 'Link copied!'", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    setNavigator('clipboard', { writeText });
    renderShare();
    await userEvent.click(screen.getByRole('button', { name: 'Copy Link' }));
    expect(writeText).toHaveBeenCalledWith(URL_TO_SHARE);
    expect(await screen.findByText('Link copied!')).toBeInTheDocument();
  });

  it("says 'Copy failed' / 'Please copy the link manually' when copying fails", async () => {
    setNavigator('clipboard', { writeText: () => Promise.reject(new Error('denied')) });
    renderShare();
    await userEvent.click(screen.getByRole('button', { name: 'Copy Link' }));
    expect(await screen.findByText('Copy failed')).toBeInTheDocument();
    expect(screen.getByText('Please copy the link manually')).toBeInTheDocument();
  });

  it('links Facebook, Twitter and WhatsApp in a new tab with the address', () => {
    renderShare();
    const encoded = encodeURIComponent(URL_TO_SHARE);
    for (const [name, start] of [
      ['Facebook', 'https://www.facebook.com/sharer/sharer.php?u='],
      ['Twitter', 'https://twitter.com/intent/tweet?url='],
      ['WhatsApp', 'https://wa.me/?text='],
    ] as const) {
      const link = screen.getByRole('link', { name });
      expect(link.getAttribute('href')).toMatch(
        new RegExp(`^${start.replace(/[?.]/g, '\\$&')}.*${encoded.replace(/%/g, '%')}`),
      );
      expect(link).toHaveAttribute('target', '_blank');
      expect(link.getAttribute('rel')).toContain('noopener');
    }
  });
});
