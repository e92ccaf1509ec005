import { useEffect } from 'react';

export interface PageMetaInput {
  title: string;
  description: string;
  keywords: string;
}

function setMeta(attribute: 'name' | 'property', key: string, content: string) {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!element) {
    element = document.createElement('meta');
    element.setAttribute(attribute, key);
    document.head.append(element);
  }
  element.content = content;
}

function setCanonical(href: string) {
  let link = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'canonical';
    document.head.append(link);
  }
  link.href = href;
}

/**
 * SPEC.md section 2: title, description, keywords, social image and address and the canonical link come
 * from fixed text. The server renders the same tags; this keeps them right after client-side navigation.
 */
export function usePageMeta({ title, description, keywords }: PageMetaInput) {
  useEffect(() => {
    const pageUrl = new URL(window.location.pathname, window.location.origin).href;
    document.title = title;
    setMeta('name', 'description', description);
    setMeta('name', 'keywords', keywords);
    setMeta('property', 'og:title', title);
    setMeta('property', 'og:description', description);
    setMeta('property', 'og:url', pageUrl);
    setMeta('property', 'og:image', new URL('/og-image.png', window.location.origin).href);
    setCanonical(pageUrl);
  }, [title, description, keywords]);
}
