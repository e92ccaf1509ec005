// Build-time entry (scripts/prerender.mjs): the home page rendered to HTML before any data, with tokens
// where the station's saved details go. The server fills them in for each request (plugins/client.ts).
import { renderToString } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { STATION_LINK_NAMES } from '../common/page-meta';
import type { StationInfo } from '../common/station';
import { App } from './app/app';
import { AudioPlayer, setPlayer } from './features/player';
import { createQueryClient } from './lib/query-client';
import { provideStation } from './lib/station';

/** A network address no station has: links built on it become {{NETWORK_LINK:path}} tokens. */
const NETWORK_PLACEHOLDER = 'https://network.invalid/';

/** Addresses no station has: the footer's and social band's links become {{STATION_LINK:name}} tokens. */
const LINK_PLACEHOLDER = 'https://link.invalid/';

const PRERENDER_STATION: StationInfo = {
  name: '{{STATION_NAME}}',
  networkName: '{{NETWORK_NAME}}',
  networkUrl: NETWORK_PLACEHOLDER,
  timeZone: 'UTC',
  // Staff set these in the Station tab; the server fills in each, or its default (page-meta.ts).
  links: Object.fromEntries(STATION_LINK_NAMES.map((name) => [name, `${LINK_PLACEHOLDER}${name}`])),
};

/** The player as the page first shows it, on an element that never plays (there is no DOM here). */
function stoppedPlayer(): AudioPlayer {
  const audio = Object.assign(new EventTarget(), {
    volume: 1,
    muted: false,
    preload: 'none',
    currentTime: 0,
  });
  return new AudioPlayer({ audio: audio as unknown as HTMLAudioElement, method: 'html5' });
}

export async function prerenderPage(path: string): Promise<string> {
  provideStation(PRERENDER_STATION);
  setPlayer(stoppedPlayer());
  // Nothing is fetched here (no effects run): every section renders as it first does in the browser, loading.
  const queryClient = createQueryClient();
  const page = <App queryClient={queryClient} ssrPath={path} />;
  // The first pass loads the lazily loaded sections; the second renders them in place, with nothing left
  // for an inline script to finish (the page's Content-Security-Policy allows none).
  const errors: unknown[] = [];
  await prerender(page, { onError: (error) => void errors.push(error) }).then(({ prelude }) =>
    new Response(prelude).text(),
  );
  if (errors.length > 0) throw errors[0];
  // A part that fails (React leaves <!--$!--> there) or waits (<!--$?-->) would be left for the browser
  // to render: the build stops instead.
  const html = renderToString(page);
  // Queries made while rendering keep a garbage-collection timer (the stream address's is 10 min) that
  // would hold the build process open: the cache is dropped with its timers once the page is rendered.
  queryClient.clear();
  if (/<script|<!--\$[?!]-->/.test(html)) throw new Error(`a part of ${path} did not render at build`);
  const tokens = html
    .replaceAll('info@network.invalid', '{{CONTACT_EMAIL}}')
    // In a share link's address: {{STATION_NAME_URI}}, the name as encodeURIComponent writes it.
    .replace(/%7B%7B([A-Z_]+)%7D%7D/g, '{{$1_URI}}')
    .replace(/https:\/\/network\.invalid\/([a-z0-9/-]*)/g, '{{NETWORK_LINK:$1}}')
    .replace(/https:\/\/link\.invalid\/([A-Za-z]+)/g, '{{STATION_LINK:$1}}');
  if (/network\.invalid|link\.invalid|%7B%7B/.test(tokens))
    throw new Error('the network address was used in a way the server cannot fill in');
  return tokens;
}
