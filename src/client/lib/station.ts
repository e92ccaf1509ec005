import {
  networkLink as linkOnNetwork,
  STATION_CONFIG_ELEMENT_ID,
  stationLink as linkOfStation,
  type StationLinkName,
} from '../../common/page-meta';
import type { StationInfo } from '../../common/station';

/** Used when the page carries no station config (component tests, the Vite dev server's raw index.html). */
export const FALLBACK_STATION: StationInfo = {
  name: 'Christian Radio',
  networkName: 'Church Network',
  networkUrl: 'https://example.org',
  timeZone: 'UTC',
};

/**
 * The shape of stationInfoSchema (src/common/station.ts), checked by hand: zod's runtime would cost the
 * home page about 23 KB gzipped of its 150 KB budget for this one object.
 */
function isStationInfo(value: unknown): value is StationInfo {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  const links = record.links;
  return (
    (['name', 'networkName', 'networkUrl', 'timeZone'] as const).every(
      (key) => typeof record[key] === 'string',
    ) &&
    (links === undefined ||
      (typeof links === 'object' &&
        links !== null &&
        Object.values(links).every((link) => typeof link === 'string')))
  );
}

/** Reads the station config the server embeds in the page. */
export function readStationConfig(doc: Document = document): StationInfo {
  const text = doc.getElementById(STATION_CONFIG_ELEMENT_ID)?.textContent;
  if (!text) return FALLBACK_STATION;
  try {
    const value: unknown = JSON.parse(text);
    return isStationInfo(value) ? value : FALLBACK_STATION;
  } catch {
    return FALLBACK_STATION;
  }
}

let cached: StationInfo | undefined;

/** The station's name, network and time zone, read once from the page (the fallback where there is none). */
export function getStation(): StationInfo {
  cached ??= typeof document === 'undefined' ? FALLBACK_STATION : readStationConfig();
  return cached;
}

/** Sets the station the page is rendered for where there is no page to read it from (the build's prerender). */
export function provideStation(station: StationInfo) {
  cached = station;
}

/** A page on the network's main site, e.g. networkLink('about'); '' is the site's home. */
export function networkLink(path: string, station: StationInfo = getStation()): string {
  return linkOnNetwork(path, station);
}

/** A footer or social link as staff set it in the Station tab, else its default (SPEC.md section 2). */
export function stationLink(name: StationLinkName, station: StationInfo = getStation()): string {
  return linkOfStation(name, station);
}
