import { z } from 'zod';
import {
  hasNoStrayControlCharacters,
  isSingleLineText,
  isStorableText,
  SINGLE_LINE_TEXT_MESSAGE,
  STORABLE_TEXT_MESSAGE,
} from './text.js';

/** Where the composer and the history live (staff only). */
export const NEWSLETTERS_PATH = '/api/newsletters';

/** Sending refused without an SMTP server: what the composer shows and the 409 says. */
export const NEWSLETTER_NEEDS_SMTP =
  "Sending the newsletter needs SMTP_URL: see the README's 'Newsletter e-mail' section.";
export const NO_CONFIRMED_SUBSCRIBERS = 'There is no confirmed subscriber to send it to.';

/** Default pace: one message a second, so a small SMTP account is not blocked. */
export const DEFAULT_MESSAGES_PER_SECOND = 1;
export const MIN_MESSAGES_PER_SECOND = 0.01;
export const MAX_MESSAGES_PER_SECOND = 100;
export const MAX_NEWSLETTER_SUBJECT = 200;
export const MAX_NEWSLETTER_BODY = 20_000;

/**
 * What staff write: a one-line subject, the text (blank lines between paragraphs; http(s) addresses become
 * links) and an optional picture (uploaded through /api/upload-image, or an https address).
 */
export const newsletterDraftSchema = z.object({
  subject: z
    .string({ error: 'Subject is required' })
    .trim()
    .min(1, 'Subject is required')
    .max(MAX_NEWSLETTER_SUBJECT, `Subject must be at most ${MAX_NEWSLETTER_SUBJECT} characters`)
    .refine(isSingleLineText, `Subject ${SINGLE_LINE_TEXT_MESSAGE}`),
  body: z
    .string({ error: 'Text is required' })
    .trim()
    .min(1, 'Text is required')
    .max(MAX_NEWSLETTER_BODY, `Text must be at most ${MAX_NEWSLETTER_BODY} characters`)
    .refine(isStorableText, `Text ${STORABLE_TEXT_MESSAGE}`)
    .refine(hasNoStrayControlCharacters, 'Text must not contain control characters'),
  imageUrl: z
    .string({ error: 'Picture must be an address' })
    .trim()
    .max(2000, 'The picture address is too long')
    .refine((url) => url === '' || /^(\/uploads\/[\w.-]+|https:\/\/[^\s"'<>]+)$/.test(url), {
      message: 'Picture must be an uploaded file or an https address',
    })
    .nullish()
    .transform((url) => url || null),
});
export type NewsletterDraft = z.input<typeof newsletterDraftSchema>;

export const newsletterTestSchema = newsletterDraftSchema.extend({
  to: z
    .string({ error: 'Please enter a valid email address' })
    .trim()
    .max(254, 'Please enter a valid email address')
    .pipe(z.email({ error: 'Please enter a valid email address' })),
});

export const newsletterSendSchema = newsletterDraftSchema.extend({
  perSecond: z
    .number({ error: 'Pace must be a number of messages a second' })
    .min(MIN_MESSAGES_PER_SECOND, `Pace must be at least ${MIN_MESSAGES_PER_SECOND} messages a second`)
    .max(MAX_MESSAGES_PER_SECOND, `Pace must be at most ${MAX_MESSAGES_PER_SECOND} messages a second`)
    .default(DEFAULT_MESSAGES_PER_SECOND),
});

/** The e-mail as a subscriber will receive it (the unsubscribe footer included). */
export const newsletterPreviewSchema = z.object({ subject: z.string(), html: z.string(), text: z.string() });
export type NewsletterPreview = z.infer<typeof newsletterPreviewSchema>;

export const newsletterSummarySchema = z.object({
  id: z.string(),
  subject: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  status: z.enum(['sending', 'done']),
  perSecond: z.number(),
  recipients: z.number(),
  sent: z.number(),
  failed: z.number(),
  /** Queued or being sent. */
  left: z.number(),
  /** Unsubscribed (or no longer confirmed) before their turn came: sent nothing. */
  skipped: z.number(),
  /** The station stopped while the SMTP server was being asked: maybe delivered, never sent again. */
  unknown: z.number(),
});
export type NewsletterSummary = z.infer<typeof newsletterSummarySchema>;

export const newsletterListSchema = z.object({
  /** False without SMTP_URL: the composer says so and sending is refused. */
  canSend: z.boolean(),
  newsletters: z.array(newsletterSummarySchema),
});
export type NewsletterList = z.infer<typeof newsletterListSchema>;

export const newsletterFailureSchema = z.object({
  email: z.string(),
  attempts: z.number(),
  state: z.enum(['failed', 'unknown']),
  /** The SMTP server's answer (or why it could not be reached). */
  error: z.string().nullable(),
});
export const newsletterDetailSchema = newsletterSummarySchema.extend({
  body: z.string(),
  imageUrl: z.string().nullable(),
  failures: z.array(newsletterFailureSchema),
});
export type NewsletterDetail = z.infer<typeof newsletterDetailSchema>;
