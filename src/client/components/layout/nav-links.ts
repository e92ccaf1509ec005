import { networkLink } from '../../lib/station';
import type { StationInfo } from '../../../common/station';

export interface NavLink {
  label: string;
  href: string;
  external?: boolean;
}

/** SPEC.md section 2: the header's links, the same on desktop and in the mobile dropdown. */
export function headerLinks(station: StationInfo): NavLink[] {
  return [
    { label: 'Home', href: '/' },
    { label: 'Programs', href: '#programs' },
    { label: 'Prayer', href: '#prayer' },
    { label: station.networkName, href: networkLink('', station), external: true },
  ];
}
