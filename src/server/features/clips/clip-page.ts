import type { ClipRow } from './service.js';
import { escapeHtml } from '../../html.js';

/** The small shareable page of a clip: the station's name, the clip and a player. No script needed. */
export function renderClipPage(clip: ClipRow, stationName: string, pageUrl: string): string {
  const title = escapeHtml(clip.title);
  const station = escapeHtml(stationName);
  const description = escapeHtml(clip.description ?? '');
  const audio = escapeHtml(clip.audioUrl);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${station}</title>
<meta name="description" content="${description}">
<meta property="og:type" content="music.song">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:site_name" content="${station}">
<meta property="og:url" content="${escapeHtml(pageUrl)}">
<meta property="og:audio" content="${audio}">
<link rel="icon" type="image/svg+xml" href="/logo.svg">
<style>
  body { margin: 0; font-family: system-ui, sans-serif; background: #f8fafc; color: #0f172a; }
  main { max-width: 36rem; margin: 3rem auto; padding: 2rem; background: #172554; color: #fff; border-radius: 1rem; }
  .station { color: #fcd34d; font-weight: 600; text-transform: uppercase; letter-spacing: .1em; font-size: .8rem; }
  h1 { margin: .5rem 0; font-size: 1.6rem; }
  p { color: #dbeafe; }
  audio { width: 100%; margin: 1rem 0; }
  a { color: #fcd34d; }
  .links { display: flex; gap: 1.5rem; flex-wrap: wrap; }
</style>
</head>
<body>
<main>
  <div class="station">${station}</div>
  <h1>${title}</h1>
  <p>${description}</p>
  <audio controls preload="metadata" src="${audio}"></audio>
  <p>${clip.duration} s${clip.trackTitle ? ` · ${escapeHtml(clip.trackTitle)}` : ''}</p>
  <div class="links"><a href="${audio}?download=1">Download</a><a href="/">Listen live on ${station}</a></div>
</main>
</body>
</html>`;
}
