import { keepEarlyTaps } from './lib/early-taps';
import { listenForInstallPrompt } from './lib/install-prompt';
import { registerServiceWorker } from './lib/register-service-worker';
import './styles.css';

// The browser may offer installation before React has rendered anything.
listenForInstallPrompt();
if (import.meta.env.PROD) registerServiceWorker();

/** After the browser has painted the page as served (or 100 ms, in a tab that is not painting). */
const afterFirstPaint = () =>
  new Promise<void>((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });

// The served HTML is shown first; React and the page's code load and take it over just after. React's
// renderer is evaluated on its own, so neither it nor the page's modules hold the main thread for long.
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
const root = document.getElementById('root')!;
keepEarlyTaps(root);
void afterFirstPaint()
  .then(() => import('react-dom/client'))
  .then(nextTask)
  .then(() => import('./render-app'))
  .then(({ renderApp }) => renderApp(root));
