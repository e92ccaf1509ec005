import { act } from '@testing-library/react';
import { useEffect } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { keepEarlyTaps } from './early-taps';

const played = vi.fn();
const sent = vi.fn();

function Page({ ready }: { ready: boolean }) {
  useEffect(() => {
    if (ready) document.documentElement.dataset.ready = '';
  }, [ready]);
  return (
    <>
      <button type="button" onClick={played}>
        Play
      </button>
      <div data-section="community">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            sent();
          }}
        >
          <button type="submit">Send</button>
        </form>
      </div>
    </>
  );
}

let root: Root | undefined;
afterAll(() => act(() => root?.unmount()));

describe('keepEarlyTaps', () => {
  it('keeps taps on the served page and gives them again once React has taken each part over', async () => {
    document.body.innerHTML = `<div id="root">${renderToString(<Page ready={false} />)}</div>`;
    const container = document.getElementById('root')!;
    keepEarlyTaps(container);
    const nativeSubmit = vi.fn((event: Event) => event.preventDefault());
    container.querySelector('form')!.addEventListener('submit', nativeSubmit);
    const button = (name: string) =>
      [...container.querySelectorAll('button')].find((b) => b.textContent === name)!;

    button('Play').click();
    button('Send').click();
    expect(nativeSubmit).not.toHaveBeenCalled(); // the form is not sent by the browser before React has it

    await act(async () => {
      root = hydrateRoot(container, <Page ready={true} />);
    });
    // The page is React's: Play is given again; Send waits for its section's code.
    await vi.waitFor(() => expect(played).toHaveBeenCalledTimes(1));
    expect(sent).not.toHaveBeenCalled();

    await act(async () => container.querySelector('[data-section]')!.setAttribute('data-loaded', ''));
    await vi.waitFor(() => expect(sent).toHaveBeenCalledTimes(1));

    // Once taken over, a tap goes straight to React, once.
    await act(async () => button('Play').click());
    expect(played).toHaveBeenCalledTimes(2);
  });
});
