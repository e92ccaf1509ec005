import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { resetInstallPrompt } from '../../lib/install-prompt';
import { FALLBACK_STATION } from '../../lib/station';
import { fireInstallPrompt } from '../../test/install-prompt-event';
import { Header } from './header';

afterEach(() => resetInstallPrompt());

const hrefs = (scope: HTMLElement) =>
  within(scope)
    .getAllByRole('link')
    .map((link) => [link.textContent?.replace(' (opens in a new tab)', ''), link.getAttribute('href')]);

describe('Header', () => {
  it('shows the station name with the logo and a link to the network site', () => {
    render(<Header />);
    expect(screen.getByRole('heading', { level: 1, name: FALLBACK_STATION.name })).toBeInTheDocument();
    expect(document.querySelector('img[src="/logo.svg"]')).not.toBeNull();
    const network = screen.getByRole('link', { name: `A ministry of ${FALLBACK_STATION.networkName}` });
    expect(network).toHaveAttribute('href', 'https://example.org/');
    expect(network).toHaveAttribute('target', '_blank');
  });

  it('offers keyboard users a skip link to the page content', () => {
    render(<Header />);
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main');
  });

  it('links Home, Programs, Prayer and the main network site (new tab)', () => {
    render(<Header />);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(hrefs(nav)).toEqual([
      ['Home', '/'],
      ['Programs', '#programs'],
      ['Prayer', '#prayer'],
      [FALLBACK_STATION.networkName, 'https://example.org/'],
    ]);
    const external = within(nav).getByRole('link', { name: new RegExp(FALLBACK_STATION.networkName) });
    expect(external).toHaveAttribute('target', '_blank');
    expect(external.getAttribute('rel')).toContain('noopener');
  });

  it('toggles the mobile dropdown with the same links, and closes it when a link is chosen', async () => {
    const user = userEvent.setup();
    render(<Header />);
    const button = screen.getByRole('button', { name: 'Open menu' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).toBeNull();

    await user.click(button);
    const menu = screen.getByRole('navigation', { name: 'Mobile' });
    expect(hrefs(menu)).toEqual(hrefs(screen.getByRole('navigation', { name: 'Main' })));
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');

    await user.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(
      within(screen.getByRole('navigation', { name: 'Mobile' })).getByRole('link', { name: 'Programs' }),
    );
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).toBeNull();
  });

  it("shows 'Install App' only once the browser offers installation; clicking prompts and hides it", async () => {
    const user = userEvent.setup();
    render(<Header />);
    expect(screen.queryByRole('button', { name: 'Install App' })).toBeNull();

    let event!: ReturnType<typeof fireInstallPrompt>;
    act(() => {
      event = fireInstallPrompt();
    });
    expect(event.defaultPrevented).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Install App' }));
    expect(event.prompt).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Install App' })).toBeNull();
  });
});
