/** Escapes text for HTML content and quoted attribute values. */
export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export interface SmallPage {
  /** Plain text: escaped here. */
  title: string;
  stationName: string;
  /** Extra `<head>` markup, already escaped by the caller. */
  head?: string;
  /** The card's markup below the station's name, already escaped by the caller. */
  body: string;
}

/**
 * The shell of the small pages the server renders itself (a clip, the newsletter's confirm and unsubscribe
 * pages): the station's name over one card, styles inline, no script, so the strict CSP holds.
 */
export function renderSmallPage(page: SmallPage): string {
  const station = escapeHtml(page.stationName);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · ${station}</title>
${page.head ?? ''}<link rel="icon" type="image/svg+xml" href="/logo.svg">
<style>
  body { margin: 0; font-family: system-ui, sans-serif; background: #f8fafc; color: #0f172a; }
  main { max-width: 36rem; margin: 3rem auto; padding: 2rem; background: #172554; color: #fff; border-radius: 1rem; }
  .station { color: #fcd34d; font-weight: 600; text-transform: uppercase; letter-spacing: .1em; font-size: .8rem; }
  h1 { margin: .5rem 0; font-size: 1.6rem; }
  p { color: #dbeafe; }
  audio { width: 100%; margin: 1rem 0; }
  a { color: #fcd34d; }
  .links { display: flex; gap: 1.5rem; flex-wrap: wrap; }
  button { font: inherit; font-weight: 600; padding: .6rem 1.2rem; border: 0; border-radius: .5rem; background: #fcd34d; color: #172554; cursor: pointer; }
</style>
</head>
<body>
<main>
  <div class="station">${station}</div>
${page.body}
</main>
</body>
</html>`;
}
