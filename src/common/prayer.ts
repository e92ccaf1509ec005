import { z } from 'zod';
import { PRAYER_TEXT } from './prayer-text.js';
import { isStorableText, STORABLE_TEXT_MESSAGE } from './text.js';

export { PRAYER_FORM_PATH, PRAYER_TEXT } from './prayer-text.js';

/** Limits a station needs and SPEC.md leaves open. */
export const MAX_PRAYER_REQUEST_LENGTH = 5000;
export const MAX_PRAYER_NAME_LENGTH = 100;

/**
 * SPEC.md section 3's payload: name optional (trimmed, omitted when empty), request, isPrivate sent as
 * the text 'true'. Every request is stored private whatever the caller sends (DESIGN.md section 6).
 */
export const prayerRequestBodySchema = z.object({
  name: z
    .string({ error: 'Name must be text' })
    .trim()
    .max(MAX_PRAYER_NAME_LENGTH, `Name must be at most ${MAX_PRAYER_NAME_LENGTH} characters`)
    .refine(isStorableText, `Name ${STORABLE_TEXT_MESSAGE}`)
    .optional()
    .transform((name) => name || undefined),
  request: z
    .string({ error: PRAYER_TEXT.blank })
    .trim()
    .min(1, PRAYER_TEXT.blank)
    .max(
      MAX_PRAYER_REQUEST_LENGTH,
      `Prayer request must be at most ${MAX_PRAYER_REQUEST_LENGTH.toLocaleString('en-US')} characters`,
    )
    .refine(isStorableText, `Prayer request ${STORABLE_TEXT_MESSAGE}`),
  isPrivate: z.enum(['true', 'false'], { error: "isPrivate must be 'true' or 'false'" }).optional(),
});
export type PrayerRequestBody = z.input<typeof prayerRequestBodySchema>;

/** Staff view of a prayer request (SPEC.md section 3 table, plus DESIGN.md section 7's prayed-for who and when). */
export const prayerRequestSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  request: z.string(),
  createdAt: z.string(),
  prayedAt: z.string().nullable(),
  prayedBy: z.string().nullable(),
});
export type PrayerRequest = z.infer<typeof prayerRequestSchema>;
export const prayerRequestListSchema = z.array(prayerRequestSchema);

export const PRAYER_FILTERS = ['open', 'prayed'] as const;
export type PrayerFilter = (typeof PRAYER_FILTERS)[number];
export const prayerListQuerySchema = z.object({
  status: z.enum(PRAYER_FILTERS, { error: "status must be 'open' or 'prayed'" }).optional(),
});

export { idParamsSchema as prayerIdParamsSchema } from './http.js';

export const PRAYER_REQUEST_NOT_FOUND = 'Prayer request not found';

/** The Prayer tab's unread count: requests no staff member has had in front of them yet. */
export const PRAYER_UNREAD_PATH = '/api/prayer-requests/unread-count';
export const PRAYER_READ_PATH = '/api/prayer-requests/read';
export const unreadCountSchema = z.object({ unread: z.number().int().nonnegative() });
export type UnreadCount = z.infer<typeof unreadCountSchema>;
/** Staff saw the inbox up to this request's time. */
export const markReadBodySchema = z.object({
  upTo: z.iso.datetime({ error: 'upTo must be an ISO date and time' }),
});
