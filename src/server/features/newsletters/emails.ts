import { escapeHtml } from '../../html.js';

export interface NewsletterContent {
  subject: string;
  body: string;
  imageUrl: string | null;
}

// An http(s) address up to the first space or angle bracket, without a sentence's closing punctuation.
const LINK = /https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]'}]/g;

/** One paragraph's text as markup: escaped, its addresses made links, its line breaks kept. */
function paragraphHtml(text: string): string {
  let html = '';
  let from = 0;
  for (const match of text.matchAll(LINK)) {
    html += escapeHtml(text.slice(from, match.index));
    const url = escapeHtml(match[0]);
    html += `<a href="${url}">${url}</a>`;
    from = match.index + match[0].length;
  }
  html += escapeHtml(text.slice(from));
  return `<p>${html.replace(/\r?\n/g, '<br>\n')}</p>`;
}

/**
 * A newsletter as the station's other e-mails look: plain paragraphs (a blank line starts a new one),
 * addresses as links, the picture first. Everything staff typed is escaped; the mailer adds the footer.
 * A picture uploaded to the station is linked on PUBLIC_URL, as the e-mail is read elsewhere.
 */
export function newsletterEmail(content: NewsletterContent, origin: string) {
  const paragraphs = content.body
    .split(/\r?\n[ \t]*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  const picture = content.imageUrl?.startsWith('/') ? `${origin}${content.imageUrl}` : content.imageUrl;
  const html = paragraphs.map(paragraphHtml);
  if (picture)
    html.unshift(
      `<p><img src="${escapeHtml(picture)}" alt="" style="max-width:100%;height:auto;border-radius:8px"></p>`,
    );
  return { subject: content.subject, text: paragraphs.join('\n\n'), html: html.join('\n') };
}
