import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../lib/query-client';
import { Providers } from './providers';

function renderPage() {
  render(
    <Providers queryClient={createQueryClient()}>
      <button type="button">Turn On</button>
    </Providers>,
  );
  return { notifications: () => screen.findByRole('region', { name: 'Notifications (F8)' }) };
}

describe('the deferred notification area', () => {
  it('is not in the page until the first key press, and F8 as that first key focuses it', async () => {
    const { notifications } = renderPage();
    expect(screen.queryByRole('region', { name: 'Notifications (F8)' })).toBeNull();
    fireEvent.keyDown(document.body, { key: 'F8', code: 'F8' });
    const area = await notifications();
    expect(area.contains(document.activeElement)).toBe(true);
  });

  it('does not take the focus from where the visitor moved it while it loaded', async () => {
    const { notifications } = renderPage();
    fireEvent.keyDown(document.body, { key: 'F8', code: 'F8' });
    const button = screen.getByRole('button', { name: 'Turn On' });
    button.focus();
    await notifications();
    expect(document.activeElement).toBe(button);
  });

  it('another first key loads it without moving the focus', async () => {
    const { notifications } = renderPage();
    fireEvent.keyDown(document.body, { key: 'Tab', code: 'Tab' });
    const area = await notifications();
    expect(area.contains(document.activeElement)).toBe(false);
    // From then on F8 is Radix's own.
    fireEvent.keyDown(document, { key: 'F8', code: 'F8' });
    expect(area.contains(document.activeElement)).toBe(true);
  });
});
