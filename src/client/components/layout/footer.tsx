import type { ReactNode } from 'react';
import { contactEmail } from '../../../common/page-meta';
import { FOOTER_COPYRIGHT_YEAR } from '../../../common/ui';
import { useLocation } from 'wouter';
import { getStation, networkLink, stationLink } from '../../lib/station';
import { homeAnchor } from './nav-links';

const linkClass =
  'rounded text-blue-100 hover:text-amber-300 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400';
const external = { target: '_blank', rel: 'noopener noreferrer' } as const;

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-amber-300">{title}</h2>
      <ul className="space-y-2 text-sm">{children}</ul>
    </div>
  );
}

/**
 * SPEC.md section 2 item 10. Live Stream, privacy, terms and the contact address are as staff set them in
 * the Station tab; unset, Live Stream goes to the player at the top of the home page, privacy and terms to
 * the network site (the station serves only / and /dashboard-mgmt), the address is info@ its domain.
 */
export function Footer() {
  const station = getStation();
  const email = contactEmail(station);
  const [location] = useLocation();
  const anchor = (hash: string) => homeAnchor(hash, location === '/');
  return (
    <footer className="bg-blue-950 text-blue-100">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <div className="mb-3 flex items-center gap-2">
            <img src="/logo.svg" alt="" width={32} height={32} className="h-8 w-8" />
            <p className="text-lg font-bold text-white">{station.name}</p>
          </div>
          <p className="text-sm text-blue-200">
            Live Christian radio, a ministry of the {station.networkName}: worship, teaching and prayer,
            streaming every day.
          </p>
        </div>
        <Column title="Listen">
          <li>
            <a className={linkClass} href="/">
              Home
            </a>
          </li>
          <li>
            <a className={linkClass} href={station.links?.liveStream ?? anchor('#')}>
              Live Stream
            </a>
          </li>
          <li>
            <a className={linkClass} href={anchor('#programs')}>
              Programs
            </a>
          </li>
          <li>
            <a className={linkClass} href={anchor('#prayer')}>
              Prayer Requests
            </a>
          </li>
        </Column>
        <Column title={station.networkName}>
          <li>
            <a className={linkClass} href={networkLink('', station)} {...external}>
              Network Home
            </a>
          </li>
          <li>
            <a className={linkClass} href={networkLink('about', station)} {...external}>
              About Us
            </a>
          </li>
          <li>
            <a className={linkClass} href={networkLink('ministries', station)} {...external}>
              Ministries
            </a>
          </li>
          <li>
            <a className={linkClass} href={networkLink('contact', station)} {...external}>
              Contact
            </a>
          </li>
        </Column>
        <Column title="Connect">
          <li>
            <a className={linkClass} href={`mailto:${email}`}>
              {email}
            </a>
          </li>
          <li>
            <a className={linkClass} href={stationLink('privacy', station)} {...external}>
              Privacy Policy
            </a>
          </li>
          <li>
            <a className={linkClass} href={stationLink('terms', station)} {...external}>
              Terms of Service
            </a>
          </li>
        </Column>
      </div>
      <div className="border-t border-blue-900">
        <p className="mx-auto max-w-6xl px-4 py-4 text-center text-xs text-blue-200">
          © {FOOTER_COPYRIGHT_YEAR} {station.name}, a ministry of the {station.networkName}. All rights
          reserved.
        </p>
      </div>
    </footer>
  );
}
