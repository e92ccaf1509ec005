import { useSyncExternalStore } from 'react';

/** Chromium's install offer; not in the DOM typings. */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform?: string }>;
}

interface InstallOffer {
  event: BeforeInstallPromptEvent;
  /** When the browser offered installation (ms since epoch); the banner waits from here. */
  offeredAt: number;
}

let offer: InstallOffer | null = null;
let listening = false;
const subscribers = new Set<() => void>();

const notify = () => subscribers.forEach((fn) => fn());

function onBeforeInstallPrompt(event: Event) {
  // Keep the browser's own mini-infobar away; the header button and the banner offer it instead.
  event.preventDefault();
  offer = { event: event as BeforeInstallPromptEvent, offeredAt: Date.now() };
  notify();
}

function onAppInstalled() {
  offer = null;
  notify();
}

/** Starts listening for the browser's install offer; main.tsx calls it before the first render so none is missed. */
export function listenForInstallPrompt() {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  window.addEventListener('beforeinstallprompt', onBeforeInstallPrompt);
  window.addEventListener('appinstalled', onAppInstalled);
}

/** Shows the browser's install prompt once; the offer is used up whatever the answer. */
export async function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const current = offer;
  if (!current) return 'unavailable';
  offer = null;
  notify();
  await current.event.prompt();
  const choice = await current.event.userChoice;
  return choice.outcome;
}

/** Forgets any offer (tests start clean). */
export function resetInstallPrompt() {
  offer = null;
  notify();
}

function subscribe(fn: () => void) {
  listenForInstallPrompt();
  subscribers.add(fn);
  return () => {
    subscribers.delete(fn);
  };
}

/** The browser's current install offer, or null when it has not offered installation. */
export function useInstallOffer(): InstallOffer | null {
  return useSyncExternalStore(
    subscribe,
    () => offer,
    () => null,
  );
}
