/**
 * Whether React has taken over the part of the page the element is in: the page (`<html data-ready>`,
 * app.tsx) and, on the home page, its section (`data-loaded`, app/home/deferred-section.tsx).
 */
function takenOver(element: Element): boolean {
  if (!document.documentElement.hasAttribute('data-ready')) return false;
  const section = element.closest('[data-section]');
  return section === null || section.hasAttribute('data-loaded');
}

/**
 * The prerendered home page shows its buttons before their code has arrived. A tap on one is kept (the
 * browser does nothing with it, a form is not submitted natively) and given again once React has taken
 * that part over, so the listener's Play, Share or Send is not lost on a slow phone.
 */
export function keepEarlyTaps(root: HTMLElement) {
  const taps: Element[] = [];
  document.addEventListener(
    'click',
    (event) => {
      const button = event.target instanceof Element ? event.target.closest('button') : null;
      if (!button || !root.contains(button) || takenOver(button)) return;
      event.preventDefault();
      event.stopPropagation();
      taps.push(button);
    },
    true,
  );
  new MutationObserver(() => {
    for (const button of taps.filter(takenOver)) {
      taps.splice(taps.indexOf(button), 1);
      if (button.isConnected)
        button.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    }
  }).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ['data-ready', 'data-loaded'],
    subtree: true,
  });
}
