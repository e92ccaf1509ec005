import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Footer } from './footer';

const href = (name: string) => screen.getByRole('link', { name }).getAttribute('href');

describe('Footer (SPEC.md section 2 item 10)', () => {
  it('links Home, Live Stream, Programs and Prayer Requests on this page', () => {
    render(<Footer />);
    expect(href('Home')).toBe('/');
    expect(href('Live Stream')).toBe('#');
    expect(href('Programs')).toBe('#programs');
    expect(href('Prayer Requests')).toBe('#prayer');
  });

  it("links the network site's home, about, ministries and contact pages in a new tab", () => {
    render(<Footer />);
    expect(href('Network Home')).toBe('https://example.org/');
    expect(href('About Us')).toBe('https://example.org/about');
    expect(href('Ministries')).toBe('https://example.org/ministries');
    expect(href('Contact')).toBe('https://example.org/contact');
    expect(screen.getByRole('link', { name: 'About Us' })).toHaveAttribute('target', '_blank');
  });

  it('has privacy and terms pages, a mailto contact link and the 2025 copyright', () => {
    render(<Footer />);
    expect(href('Privacy Policy')).toBe('https://example.org/privacy');
    expect(href('Terms of Service')).toBe('https://example.org/terms');
    expect(screen.getByRole('link', { name: 'info@example.org' })).toHaveAttribute(
      'href',
      'mailto:info@example.org',
    );
    expect(screen.getByText(/© 2025/)).toBeInTheDocument();
  });
});
