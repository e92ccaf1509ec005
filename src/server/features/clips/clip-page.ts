import type { ClipRow } from './service.js';
import { escapeHtml, renderSmallPage } from '../../html.js';

/** The small shareable page of a clip: the station's name, the clip and a player. No script needed. */
export function renderClipPage(clip: ClipRow, stationName: string, pageUrl: string): string {
  const title = escapeHtml(clip.title);
  const station = escapeHtml(stationName);
  const description = escapeHtml(clip.description ?? '');
  const audio = escapeHtml(clip.audioUrl);
  return renderSmallPage({
    title: clip.title,
    stationName,
    head: `<meta name="description" content="${description}">
<meta property="og:type" content="music.song">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:site_name" content="${station}">
<meta property="og:url" content="${escapeHtml(pageUrl)}">
<meta property="og:audio" content="${audio}">
`,
    body: `  <h1>${title}</h1>
  <p>${description}</p>
  <audio controls preload="metadata" src="${audio}"></audio>
  <p>${clip.duration} s${clip.trackTitle ? ` · ${escapeHtml(clip.trackTitle)}` : ''}</p>
  <div class="links"><a href="${audio}?download=1">Download</a><a href="/">Listen live on ${station}</a></div>`,
  });
}
