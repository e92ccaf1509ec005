import { describe, expect, it } from 'vitest';
import { STATION_CONFIG_ELEMENT_ID } from '../../common/page-meta';
import { FALLBACK_STATION, networkLink, readStationConfig } from './station';

function pageWith(json: string) {
  const doc = document.implementation.createHTMLDocument();
  const script = doc.createElement('script');
  script.id = STATION_CONFIG_ELEMENT_ID;
  script.type = 'application/json';
  script.textContent = json;
  doc.head.append(script);
  return doc;
}

const station = {
  name: 'Grace Live Radio',
  networkName: 'Grace Church Network',
  networkUrl: 'https://grace.example',
  timeZone: 'Europe/London',
};

describe('station config', () => {
  it('reads the config the server embeds in the page', () => {
    expect(readStationConfig(pageWith(JSON.stringify(station)))).toEqual(station);
  });

  it('falls back when the page has none, or it is not valid', () => {
    expect(readStationConfig(document.implementation.createHTMLDocument())).toEqual(FALLBACK_STATION);
    expect(readStationConfig(pageWith('{not json'))).toEqual(FALLBACK_STATION);
    expect(readStationConfig(pageWith(JSON.stringify({ ...station, name: 42 })))).toEqual(FALLBACK_STATION);
  });

  it("builds links on the network site, keeping the site's own path", () => {
    expect(networkLink('about', station)).toBe('https://grace.example/about');
    expect(networkLink('/terms', { ...station, networkUrl: 'https://grace.example/church' })).toBe(
      'https://grace.example/church/terms',
    );
    expect(networkLink('', station)).toBe('https://grace.example/');
  });
});
