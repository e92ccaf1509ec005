import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FALLBACK_STATION } from '../../lib/station';
import { Breadcrumb } from './breadcrumb';

describe('Breadcrumb', () => {
  it('starts with the network site, then the items, with the last one highlighted as the current page', () => {
    render(
      <Breadcrumb
        items={[
          { label: 'Radio Ministry', href: '/' },
          { label: 'Sermons', href: 'https://example.org/sermons', external: true },
          { label: 'Walking in Faith' },
        ]}
      />,
    );
    const items = within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getAllByRole('listitem');
    const labels = items.map((item) => item.textContent).filter(Boolean);
    expect(labels).toEqual([FALLBACK_STATION.networkName, 'Radio Ministry', 'Sermons', 'Walking in Faith']);

    const network = screen.getByRole('link', { name: FALLBACK_STATION.networkName });
    expect(network).toHaveAttribute('href', 'https://example.org/');
    expect(network).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'Radio Ministry' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Sermons' })).toHaveAttribute('target', '_blank');

    const current = screen.getByText('Walking in Faith');
    expect(current).toHaveAttribute('aria-current', 'page');
    expect(document.querySelectorAll('[aria-current="page"]')).toHaveLength(1);
  });

  it("on the home page has the single item 'Radio Ministry', highlighted", () => {
    render(<Breadcrumb items={[{ label: 'Radio Ministry' }]} />);
    expect(screen.getByText('Radio Ministry')).toHaveAttribute('aria-current', 'page');
    expect(screen.getAllByRole('link')).toHaveLength(1);
  });
});
