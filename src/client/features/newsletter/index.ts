// Newsletter: the home page's 'Stay Connected' row.
export { NewsletterRow } from './components/newsletter-row';
