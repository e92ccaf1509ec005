import { networkLink } from '../../lib/station';
import type { StationInfo } from '../../../common/station';

export interface NavLink {
  label: string;
  href: string;
  external?: boolean;
}

/** An in-page anchor of the home page; from any other page it leads to the home page's section. */
export function homeAnchor(hash: string, onHomePage: boolean): string {
  return onHomePage ? hash : `/${hash}`;
}

/** SPEC.md section 2: the header's links, the same on desktop and in the mobile dropdown. */
export function headerLinks(station: StationInfo, onHomePage = true): NavLink[] {
  return [
    { label: 'Home', href: '/' },
    { label: 'Programs', href: homeAnchor('#programs', onHomePage) },
    { label: 'Prayer', href: homeAnchor('#prayer', onHomePage) },
    { label: station.networkName, href: networkLink('', station), external: true },
  ];
}
