import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INSTALL_BANNER_DELAY_MS, INSTALL_DISMISSED_KEY } from '../../../../common/ui';
import { resetInstallPrompt } from '../../../lib/install-prompt';
import { fireInstallPrompt } from '../../../test/install-prompt-event';
import { InstallBanner, resetInstallBannerSession } from './install-banner';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  act(() => resetInstallPrompt());
  resetInstallBannerSession();
  localStorage.clear();
});

function offerAndWait(outcome: 'accepted' | 'dismissed' = 'accepted') {
  let event!: ReturnType<typeof fireInstallPrompt>;
  act(() => {
    event = fireInstallPrompt(outcome);
  });
  act(() => vi.advanceTimersByTime(INSTALL_BANNER_DELAY_MS));
  return event;
}

describe('install banner', () => {
  it('stays hidden until 30 s after the browser offers installation', () => {
    render(<InstallBanner />);
    act(() => vi.advanceTimersByTime(INSTALL_BANNER_DELAY_MS * 2));
    expect(screen.queryByRole('dialog')).toBeNull();

    act(() => {
      fireInstallPrompt();
    });
    act(() => vi.advanceTimersByTime(INSTALL_BANNER_DELAY_MS - 1));
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('dialog')).toHaveTextContent('Install');
  });

  it('Later closes it and stores the dismissal time', () => {
    vi.setSystemTime(new Date('2025-06-01T12:00:00Z'));
    render(<InstallBanner />);
    offerAndWait();
    fireEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(localStorage.getItem(INSTALL_DISMISSED_KEY)).toBe(String(Date.parse('2025-06-01T12:00:30Z')));
  });

  it('the X closes it and stores the dismissal time', () => {
    render(<InstallBanner />);
    offerAndWait();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(localStorage.getItem(INSTALL_DISMISSED_KEY)).not.toBeNull();
  });

  it('Install shows the browser prompt and closes; after an accept it never shows again this session', async () => {
    const { unmount } = render(<InstallBanner />);
    const event = offerAndWait('accepted');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Install' }));
    });
    expect(event.prompt).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    unmount();

    render(<InstallBanner />);
    offerAndWait();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a stored recent dismissal has no visible effect (SPEC.md section 4)', () => {
    localStorage.setItem(INSTALL_DISMISSED_KEY, String(Date.now()));
    render(<InstallBanner />);
    offerAndWait();
    expect(screen.getByRole('dialog')).toHaveAttribute('data-recently-dismissed', 'true');
  });
});
