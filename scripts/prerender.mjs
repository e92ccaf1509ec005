// Puts the home page's HTML into the built client: dist/client/home.html is index.html with the page
// prerendered in its root (src/client/prerender.tsx, built for Node into dist/prerender). The server
// serves it for / with the station's details filled in; the browser hydrates it.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

const ROOT = '<div id="root"></div>';
const template = readFileSync('dist/client/index.html', 'utf8');
if (!template.includes(ROOT)) throw new Error(`dist/client/index.html has no ${ROOT}`);

const { prerenderPage } = await import('../dist/prerender/prerender.js');
const html = await prerenderPage('/');
writeFileSync('dist/client/home.html', template.replace(ROOT, `<div id="root">${html}</div>`));
rmSync('dist/prerender', { recursive: true, force: true });
// The build ends when its work ends: a timer the page left behind would keep this process alive.
const timers = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout');
if (timers.length > 0) throw new Error(`rendering / left ${timers.length} timer(s) running`);
console.log(`prerendered / (${(html.length / 1024).toFixed(1)} KB of HTML)`);
