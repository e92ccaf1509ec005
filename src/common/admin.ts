import { z } from 'zod';
import {
  hasNoControlCharacters,
  hasNoInvisibleCharacters,
  isSingleLineText,
  isSingleScript,
  isStorableText,
  SINGLE_LINE_TEXT_MESSAGE,
  STORABLE_TEXT_MESSAGE,
} from './text.js';
import {
  MAX_PASSWORD_LENGTH,
  MAX_USERNAME_LENGTH,
  MIN_PASSWORD_LENGTH,
  MIN_USERNAME_LENGTH,
  roleSchema,
} from './accounts.js';

/**
 * The admin API's contracts (SPEC.md sections 3, 5 and 7; DESIGN.md section 6).
 * The same schemas validate on the server and drive the client's forms, so the messages are SPEC.md's.
 */

const passwordText = (message: string) =>
  z
    .string({ error: message })
    .min(MIN_PASSWORD_LENGTH, message)
    .max(MAX_PASSWORD_LENGTH, 'Password is too long');

/** SPEC.md section 5: the one answer to a wrong username, wrong password or inactive account. */
export const INVALID_CREDENTIALS = 'Invalid credentials';

/** SPEC.md section 5, admin sign-in. */
export const loginBodySchema = z.object({
  username: z
    .string({ error: 'Username is required' })
    .trim()
    .min(1, 'Username is required')
    .max(MAX_USERNAME_LENGTH, 'Username is too long')
    .refine(isStorableText, STORABLE_TEXT_MESSAGE),
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(MAX_PASSWORD_LENGTH, 'Password is too long'),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const staffUserSchema = z.object({ id: z.string(), username: z.string(), role: roleSchema });
export type StaffUser = z.infer<typeof staffUserSchema>;

/** The token is shown once; the server keeps only its hash. */
export const loginResponseSchema = z.object({
  token: z.string(),
  expiresAt: z.iso.datetime(),
  user: staffUserSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const verifyResponseSchema = z.object({ user: staffUserSchema });
export type VerifyResponse = z.infer<typeof verifyResponseSchema>;

export const okResponseSchema = z.object({ ok: z.literal(true) });

/** SPEC.md section 5, change password. */
export const changePasswordBodySchema = z
  .object({
    currentPassword: z
      .string({ error: 'Current password is required' })
      .min(1, 'Current password is required')
      .max(MAX_PASSWORD_LENGTH, 'Password is too long'),
    newPassword: passwordText(`New password must be at least ${MIN_PASSWORD_LENGTH} characters`),
    confirmPassword: passwordText('Please confirm your new password'),
  })
  .refine((body) => body.newPassword === body.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

export const USERNAME_INVISIBLE_MESSAGE = 'Username must not contain invisible characters';
export const USERNAME_MIXED_SCRIPTS_MESSAGE =
  'Username must not mix alphabets (such as Latin and Cyrillic letters)';

const usernameSchema = z
  .string({ error: `Username must be at least ${MIN_USERNAME_LENGTH} characters` })
  .trim()
  .min(MIN_USERNAME_LENGTH, `Username must be at least ${MIN_USERNAME_LENGTH} characters`)
  .max(MAX_USERNAME_LENGTH, `Username must be at most ${MAX_USERNAME_LENGTH} characters`)
  .refine(hasNoControlCharacters, 'Username must not contain control characters')
  .refine(isStorableText, STORABLE_TEXT_MESSAGE)
  .refine(hasNoInvisibleCharacters, USERNAME_INVISIBLE_MESSAGE)
  .refine(isSingleScript, USERNAME_MIXED_SCRIPTS_MESSAGE)
  .transform((name) => name.normalize('NFC'));

/**
 * POST /api/admin/create. The Settings tab always sends role 'admin'; the superuser form sends the chosen one.
 * confirmPassword is checked by the forms below and is not sent.
 */
export const createUserBodySchema = z.object({
  username: usernameSchema,
  password: passwordText(`Password must be at least ${MIN_PASSWORD_LENGTH} characters`),
  role: roleSchema.default('admin'),
});
export type CreateUserBody = z.input<typeof createUserBodySchema>;

/** SPEC.md section 5, 'Create admin' in the Settings tab. */
export const createAdminFormSchema = z
  .object({
    username: usernameSchema,
    password: passwordText(`Password must be at least ${MIN_PASSWORD_LENGTH} characters`),
    confirmPassword: passwordText('Please confirm the password'),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

/** SPEC.md section 5, 'Superuser create user': same rules, a role, and its own confirmation message. */
export const createUserFormSchema = z
  .object({
    username: usernameSchema,
    password: passwordText(`Password must be at least ${MIN_PASSWORD_LENGTH} characters`),
    confirmPassword: passwordText(`Password must be at least ${MIN_PASSWORD_LENGTH} characters`),
    role: roleSchema,
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

/** SPEC.md section 3, user list item. Never the password hash. */
export const userListItemSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: roleSchema,
  isActive: z.boolean(),
  createdAt: z.iso.datetime(),
  lastLogin: z.iso.datetime().nullable(),
});
export type UserListItem = z.infer<typeof userListItemSchema>;
export const userListSchema = z.array(userListItemSchema);
export const userResponseSchema = z.object({ user: userListItemSchema });

const userIdSchema = z
  .string({ error: 'userId is required' })
  .trim()
  .min(1, 'userId is required')
  .max(100)
  .regex(/^[\w-]+$/, 'userId is not a valid id');

export const updateRoleBodySchema = z.object({ userId: userIdSchema, role: roleSchema });
export type UpdateRoleBody = z.infer<typeof updateRoleBodySchema>;

export const toggleStatusBodySchema = z.object({
  userId: userIdSchema,
  isActive: z.boolean({ error: 'isActive must be true or false' }),
});
export type ToggleStatusBody = z.infer<typeof toggleStatusBodySchema>;

export { idParamsSchema as userIdParamsSchema } from './http.js';

/** True for an IANA time zone name this runtime knows (e.g. Europe/London). */
export const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** Blank or absent means "not set": the link keeps its default. */
const unset = (value: string | null | undefined) => value || undefined;
const NO_CONTROL_CHARACTERS = 'must be on one line, without control characters';

/** An address a listener's browser opens: http(s) only, one line, one that parses. */
const linkAddress = (label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(500, `${label} must be at most 500 characters`)
    .refine(hasNoControlCharacters, `${label} ${NO_CONTROL_CHARACTERS}`)
    .refine(isStorableText, `${label} ${STORABLE_TEXT_MESSAGE}`)
    .refine(
      (text) => text === '' || (/^https?:\/\/[^\s/?#]+\S*$/i.test(text) && URL.canParse(text)),
      `${label} must be an http(s) address, such as https://example.org/page`,
    )
    .nullish()
    .transform(unset);

/**
 * The contact address goes after mailto: in the footer, so it is a plain address: no spaces, '?', '&' or
 * '#' that would add a subject, a copy or a body to the listener's e-mail.
 */
const MAILTO_SAFE_EMAIL = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
const contactAddress = z
  .string({ error: 'Contact e-mail must be text' })
  .trim()
  .max(254, 'Contact e-mail must be at most 254 characters')
  .refine(hasNoControlCharacters, `Contact e-mail ${NO_CONTROL_CHARACTERS}`)
  .refine(
    (text) => text === '' || MAILTO_SAFE_EMAIL.test(text),
    'Contact e-mail must be an address such as info@example.org',
  )
  .nullish()
  .transform(unset);

/** The footer's and social band's addresses (page-meta.ts's StationLinks); a blank one keeps its default. */
export const stationLinksSchema = z.object(
  {
    facebook: linkAddress('Facebook address'),
    youtube: linkAddress('YouTube address'),
    instagram: linkAddress('Instagram address'),
    liveStream: linkAddress('Live Stream address'),
    privacy: linkAddress('Privacy policy address'),
    terms: linkAddress('Terms of service address'),
    contactEmail: contactAddress,
  },
  { error: 'links must be an object of addresses' },
);

/** The 'Station' tab (superuser): what every page shows, changed without a restart. */
export const stationSettingsSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Station name is required')
    .max(80, 'Station name must be at most 80 characters')
    .refine(isStorableText, STORABLE_TEXT_MESSAGE)
    // The name goes into the stream's icy-name header, e-mail subjects and the podcast feed.
    .refine(isSingleLineText, `Station name ${SINGLE_LINE_TEXT_MESSAGE}`),
  networkName: z
    .string()
    .trim()
    .min(1, 'Network name is required')
    .max(80, 'Network name must be at most 80 characters')
    .refine(isStorableText, STORABLE_TEXT_MESSAGE)
    .refine(isSingleLineText, `Network name ${SINGLE_LINE_TEXT_MESSAGE}`),
  networkUrl: z
    .string()
    .trim()
    .max(500, 'Network address is too long')
    .refine(isStorableText, STORABLE_TEXT_MESSAGE)
    .refine(isSingleLineText, `Network address ${SINGLE_LINE_TEXT_MESSAGE}`)
    .regex(/^https?:\/\/[^\s/]+\S*$/, 'Network address must be an http(s) address'),
  timeZone: z
    .string()
    .trim()
    .min(1, 'Time zone is required')
    .refine(isTimeZone, 'Time zone must be an IANA name such as Europe/London'),
  // Settings saved before the links existed have none: every link keeps its default.
  links: stationLinksSchema.optional().transform((links) => links ?? {}),
});
export type StationSettings = z.output<typeof stationSettingsSchema>;

export const sourcePasswordResponseSchema = z.object({ sourcePassword: z.string() });
