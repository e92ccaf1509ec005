export { NewsletterRow as default } from '../../../features/newsletter';
