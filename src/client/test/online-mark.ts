import { readFileSync } from 'node:fs';
import path from 'node:path';
import { markOffline } from '../lib/online-mark';

// The rule as the page's stylesheet carries it (the test runner leaves imported CSS empty).
const css = readFileSync(path.join(import.meta.dirname, '../lib/online-mark.css'), 'utf8');

/** The page's online mark as main.tsx starts it, with its stylesheet rule; returns the undo. */
export function startOnlineMark(): () => void {
  const style = document.createElement('style');
  style.textContent = css;
  document.head.append(style);
  const stop = markOffline();
  return () => {
    stop();
    style.remove();
    document.documentElement.removeAttribute('data-offline');
  };
}

/** The texts of the elements marked `data-shown-when` that the stylesheet leaves shown. */
export const shownByOnlineMark = (root: ParentNode = document) =>
  [...root.querySelectorAll('[data-shown-when]')]
    .filter((element) => getComputedStyle(element).display !== 'none')
    .map((element) => element.textContent);
