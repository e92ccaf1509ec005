import { z } from 'zod';

/** SPEC.md section 9. */
export const MIN_USERNAME_LENGTH = 3;
export const MIN_PASSWORD_LENGTH = 8;
export const ROLES = ['admin', 'superuser'] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES);
/** The admin token lives in session storage under this key. */
export const ADMIN_TOKEN_KEY = 'adminToken';

/** Upper bounds (ours, not SPEC.md's) so nobody can make the server hash a megabyte. */
export const MAX_USERNAME_LENGTH = 64;
export const MAX_PASSWORD_LENGTH = 256;
