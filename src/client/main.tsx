import { keepEarlyTaps } from './lib/early-taps';
import { listenForInstallPrompt } from './lib/install-prompt';
import { markOffline } from './lib/online-mark';
import { registerServiceWorker } from './lib/register-service-worker';
import './styles.css';

// The browser may offer installation, or go offline, before React has rendered anything.
listenForInstallPrompt();
markOffline();
if (import.meta.env.PROD) registerServiceWorker();

/** After the browser has painted the page as served (or 100 ms, in a tab that is not painting). */
const afterFirstPaint = () =>
  new Promise<void>((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });

// The served HTML is shown first; React and the page's code load and take it over just after, each step
// in a task of its own (React's renderer evaluated, the page's modules evaluated, the class merging set
// up, hydration started), so no one step holds the main thread for long.
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

async function start(root: HTMLElement) {
  keepEarlyTaps(root);
  await afterFirstPaint();
  await import('react-dom/client');
  await nextTask();
  const { prepareClassMerging, renderApp } = await import('./render-app');
  await nextTask();
  prepareClassMerging();
  await nextTask();
  renderApp(root);
}

void start(document.getElementById('root')!);
