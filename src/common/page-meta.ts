/** The id of the <script type="application/json"> element carrying the station's details in every page. */
export const STATION_CONFIG_ELEMENT_ID = 'station-config';

/** SPEC.md section 2: fixed page texts (the station name is filled in). */
export const pageMeta = (station: { name: string; networkName: string }) => ({
  title: `${station.name} - Live Christian Radio, Sermons & Worship`,
  description: `Listen to ${station.name} live: worship music, sermons, devotions and prayer from the ${station.networkName}, streaming 24/7.`,
  keywords:
    'christian radio, live radio, gospel music, sermons, devotions, prayer requests, worship, church, online radio',
  hiddenText: `${station.name} is a live Christian internet radio ministry of the ${station.networkName}. Listen online to worship music, Bible teaching, sermons and daily devotions, follow live subtitles in your language, send a prayer request to our pastoral team, chat with other listeners and subscribe to our newsletter.`,
});

/** A page on the network's main site, e.g. networkLink('about', station); '' is the site's home. */
export function networkLink(path: string, station: { networkUrl: string }): string {
  const base = station.networkUrl.endsWith('/') ? station.networkUrl : `${station.networkUrl}/`;
  try {
    return new URL(path.replace(/^\/+/, ''), base).href;
  } catch {
    return station.networkUrl;
  }
}

/**
 * The links staff set in the Station tab (DESIGN.md section 7); each one left unset keeps its default:
 * SPEC.md's placeholder '#' for the social links, the top of the home page (the player) for Live Stream,
 * the network site's pages for privacy and terms, info@ the network's domain for the contact address.
 */
export interface StationLinks {
  facebook?: string;
  youtube?: string;
  instagram?: string;
  liveStream?: string;
  privacy?: string;
  terms?: string;
  contactEmail?: string;
}
export const STATION_LINK_NAMES = [
  'facebook',
  'youtube',
  'instagram',
  'liveStream',
  'privacy',
  'terms',
] as const;
export type StationLinkName = (typeof STATION_LINK_NAMES)[number];

/** Where a footer or social link goes on the home page: the address staff set, else its default. */
export function stationLink(
  name: StationLinkName,
  station: { networkUrl: string; links?: StationLinks },
): string {
  const set = station.links?.[name];
  if (set) return set;
  if (name === 'privacy' || name === 'terms') return networkLink(name, station);
  return '#';
}

/** The station's contact address: the one staff set, else info@ the network's domain. */
export function contactEmail(station: { networkUrl: string; links?: StationLinks }): string {
  if (station.links?.contactEmail) return station.links.contactEmail;
  try {
    return `info@${new URL(station.networkUrl).hostname.replace(/^www\./, '')}`;
  } catch {
    return 'info@example.org';
  }
}
