import Download from 'lucide-react/icons/download';
import ExternalLink from 'lucide-react/icons/external-link';
import Menu from 'lucide-react/icons/menu';
import X from 'lucide-react/icons/x';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { promptInstall, useInstallOffer } from '../../lib/install-prompt';
import { getStation, networkLink } from '../../lib/station';
import { cn } from '../../lib/utils';
import { Button } from '../ui/button';
import { headerLinks, type NavLink } from './nav-links';

function HeaderLink({
  link,
  className,
  onSelect,
}: {
  link: NavLink;
  className?: string;
  onSelect?: () => void;
}) {
  const externalProps = link.external ? { target: '_blank', rel: 'noopener noreferrer' } : {};
  return (
    <a
      href={link.href}
      onClick={onSelect}
      className={cn(
        'inline-flex items-center gap-1 rounded-md px-3 py-2 text-sm font-medium text-blue-50 transition-colors hover:bg-blue-900 hover:text-amber-300 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400',
        className,
      )}
      {...externalProps}
    >
      {link.label}
      {link.external && (
        <>
          <ExternalLink className="h-3.5 w-3.5" aria-hidden="true" />
          <span className="sr-only"> (opens in a new tab)</span>
        </>
      )}
    </a>
  );
}

/** SPEC.md section 2: title with logo and network link, nav links, mobile dropdown, 'Install App'. */
export function Header() {
  const station = getStation();
  const [location] = useLocation();
  const links = headerLinks(station, location === '/');
  const [menuOpen, setMenuOpen] = useState(false);
  const installOffer = useInstallOffer();

  return (
    <header className="sticky top-0 z-40 border-b border-blue-900 bg-blue-950 text-white shadow-md">
      <a
        href="#main"
        className="sr-only rounded-md bg-amber-400 px-4 py-2 font-semibold text-blue-950 focus:not-sr-only focus:absolute focus:left-4 focus:top-3 focus:z-50"
      >
        Skip to content
      </a>
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <div className="flex min-w-0 items-center gap-3">
          <a
            href="/"
            className="shrink-0 rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
          >
            <img src="/logo.svg" alt="" width={40} height={40} className="h-10 w-10" />
            <span className="sr-only">{station.name} home</span>
          </a>
          <div className="min-w-0">
            <h1 className="truncate text-lg font-bold leading-tight text-white sm:text-xl">{station.name}</h1>
            <a
              href={networkLink('', station)}
              target="_blank"
              rel="noopener noreferrer"
              className="block truncate text-xs text-amber-300 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
            >
              A ministry of {station.networkName}
            </a>
          </div>
        </div>

        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {links.map((link) => (
            <HeaderLink key={link.label} link={link} />
          ))}
        </nav>

        <div className="flex shrink-0 items-center gap-2">
          {installOffer && (
            <Button variant="gold" size="sm" onClick={() => void promptInstall()}>
              <Download aria-hidden="true" />
              {/* Icon only on narrow screens so the station name keeps its room; the name stays for screen readers. */}
              <span className="sr-only sm:not-sr-only">Install App</span>
            </Button>
          )}
          <button
            type="button"
            className="inline-flex h-10 w-10 items-center justify-center rounded-md text-white hover:bg-blue-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 md:hidden"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? (
              <X className="h-6 w-6" aria-hidden="true" />
            ) : (
              <Menu className="h-6 w-6" aria-hidden="true" />
            )}
          </button>
        </div>
      </div>

      {menuOpen && (
        <nav
          id="mobile-menu"
          aria-label="Mobile"
          className="border-t border-blue-900 bg-blue-950 px-4 pb-3 md:hidden"
        >
          <ul className="flex flex-col gap-1 pt-2">
            {links.map((link) => (
              <li key={link.label}>
                <HeaderLink link={link} className="w-full text-base" onSelect={() => setMenuOpen(false)} />
              </li>
            ))}
          </ul>
        </nav>
      )}
    </header>
  );
}
