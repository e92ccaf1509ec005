import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  contactEmail,
  networkLink,
  STATION_LINK_NAMES,
  stationLink,
  type StationLinkName,
} from '../../common/page-meta.js';
import { pageMeta, STATION_CONFIG_ELEMENT_ID, type StationInfo } from '../../common/station.js';
import { escapeHtml } from '../html.js';

export const clientDir = fileURLToPath(new URL('../../../dist/client', import.meta.url));

/** Built files served only filled in with the station's details. */
const TEMPLATES = new Set(['/index.html', '/home.html', '/manifest.webmanifest']);

// JSON inside <script type="application/json">: only '<' can end the element early.
const escapeJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const isStationLinkName = (name: string | undefined): name is StationLinkName =>
  (STATION_LINK_NAMES as readonly string[]).includes(name ?? '');

export function renderPage(template: string, station: StationInfo, pageUrl: string): string {
  const meta = pageMeta(station);
  const values: Record<string, string> = {
    TITLE: escapeHtml(meta.title),
    DESCRIPTION: escapeHtml(meta.description),
    KEYWORDS: escapeHtml(meta.keywords),
    HIDDEN_TEXT: escapeHtml(meta.hiddenText),
    STATION_NAME: escapeHtml(station.name),
    NETWORK_NAME: escapeHtml(station.networkName),
    STATION_NAME_URI: escapeHtml(encodeURIComponent(station.name)),
    NETWORK_NAME_URI: escapeHtml(encodeURIComponent(station.networkName)),
    CONTACT_EMAIL: escapeHtml(contactEmail(station)),
    PAGE_URL: escapeHtml(pageUrl),
    IMAGE_URL: escapeHtml(new URL('/og-image.png', pageUrl).href),
    STATION_CONFIG: `<script id="${STATION_CONFIG_ELEMENT_ID}" type="application/json">${escapeJson(station)}</script>`,
  };
  // In the prerendered home page (scripts/prerender.mjs): {{NETWORK_LINK:about}}, a page on the network's
  // site; {{STATION_LINK:facebook}}, a footer or social link as staff set it in the Station tab.
  return template.replace(/\{\{([A-Z_]+)(?::([A-Za-z0-9/-]*))?\}\}/g, (whole, key: string, path?: string) => {
    if (key === 'NETWORK_LINK' && path !== undefined) return escapeHtml(networkLink(path, station));
    if (key === 'STATION_LINK' && isStationLinkName(path)) return escapeHtml(stationLink(path, station));
    return values[key] ?? whole;
  });
}

/** Serves the built client: hashed assets cached for a year (pre-compressed), pages rendered with the station's details. */
export default fp(async function client(app: FastifyInstance, opts: { getStation: () => StationInfo }) {
  const indexPath = path.join(clientDir, 'index.html');
  const template = existsSync(indexPath)
    ? readFileSync(indexPath, 'utf8')
    : '<!doctype html><html><head><title>{{TITLE}}</title><link rel="canonical" href="{{PAGE_URL}}"></head><body><p>The client is not built. Run npm run build.</p></body></html>';
  // The home page with its first render in the HTML (prerendered at build); other pages render in the browser.
  const homePath = path.join(clientDir, 'home.html');
  const homeTemplate = existsSync(homePath) ? readFileSync(homePath, 'utf8') : template;

  if (existsSync(clientDir)) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: true,
      index: false,
      preCompressed: true,
      // Cache-Control is set below per file: left to @fastify/send, it would say max-age=0.
      cacheControl: false,
      // The raw template and the generic manifest are served filled in with the station's details below.
      allowedPath: (pathName) => !TEMPLATES.has(pathName),
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader(
          'Cache-Control',
          immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
        );
      },
    });
  }

  const sendPage = (request: FastifyRequest, reply: FastifyReply, status: number, page = template) => {
    const origin = app.linkOrigin(request, reply);
    const pageUrl = new URL(request.url.split('?')[0] ?? '/', origin).href;
    return reply
      .code(status)
      .header('Cache-Control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(renderPage(page, opts.getStation(), pageUrl));
  };

  app.get('/', (request, reply) => sendPage(request, reply, 200, homeTemplate));
  app.get('/dashboard-mgmt', (request, reply) => sendPage(request, reply, 200));

  const manifestPath = path.join(clientDir, 'manifest.webmanifest');
  if (existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
    app.get('/manifest.webmanifest', (_request, reply) => {
      const { name } = opts.getStation();
      return reply
        .type('application/manifest+json')
        .header('Cache-Control', 'no-cache')
        .send({ ...manifest, name: `${name} - Live Christian Radio`, short_name: name });
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api/');
    if (wantsPage) return sendPage(request, reply, 404);
    return reply.code(404).send({ message: `Not found: ${request.method} ${request.url.split('?')[0]}` });
  });
});
