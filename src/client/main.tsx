import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { listenForInstallPrompt } from './lib/install-prompt';
import { registerServiceWorker } from './lib/register-service-worker';
import './styles.css';

// The browser may offer installation before React has rendered anything.
listenForInstallPrompt();
if (import.meta.env.PROD) registerServiceWorker();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
