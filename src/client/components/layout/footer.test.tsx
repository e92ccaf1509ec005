import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import SiteFooter from '../../app/home/sections/site-footer';
import { FALLBACK_STATION, provideStation } from '../../lib/station';
import { Footer } from './footer';

afterEach(() => provideStation(FALLBACK_STATION));

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

describe('the links staff set in the Station tab', () => {
  it('keeps the social links as the placeholder # until they are set (SPEC.md section 2 item 9)', () => {
    render(<SiteFooter />);
    expect(['Facebook', 'YouTube', 'Instagram'].map(href)).toEqual(['#', '#', '#']);
    expect(href('Podcast')).toBe('/podcast.xml');
  });

  it('shows the social, Live Stream, privacy, terms and contact addresses staff set; unset ones keep their defaults', () => {
    provideStation({
      ...FALLBACK_STATION,
      links: {
        facebook: 'https://facebook.com/graceradio',
        youtube: 'https://youtube.com/@graceradio',
        liveStream: 'https://listen.grace.example/live',
        privacy: 'https://grace.example/legal/privacy',
        contactEmail: 'studio@grace.example',
      },
    });
    render(<SiteFooter />);
    expect(href('Facebook')).toBe('https://facebook.com/graceradio');
    expect(href('YouTube')).toBe('https://youtube.com/@graceradio');
    expect(href('Instagram')).toBe('#');
    expect(href('Live Stream')).toBe('https://listen.grace.example/live');
    expect(href('Privacy Policy')).toBe('https://grace.example/legal/privacy');
    expect(href('Terms of Service')).toBe('https://example.org/terms');
    expect(screen.getByRole('link', { name: 'studio@grace.example' })).toHaveAttribute(
      'href',
      'mailto:studio@grace.example',
    );
  });
});
