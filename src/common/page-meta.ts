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

/** The station's contact address: info@ the network's domain. */
export function contactEmail(station: { networkUrl: string }): string {
  try {
    return `info@${new URL(station.networkUrl).hostname.replace(/^www\./, '')}`;
  } catch {
    return 'info@example.org';
  }
}
