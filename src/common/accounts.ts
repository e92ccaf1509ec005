import { z } from 'zod';

/** SPEC.md section 9. */
export const MIN_USERNAME_LENGTH = 3;
export const MIN_PASSWORD_LENGTH = 8;
export const ROLES = ['admin', 'superuser'] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES);
// In a module without zod so the listener's request helper can use it without loading zod's runtime.
export { ADMIN_TOKEN_KEY } from './admin-token.js';

/** Upper bounds (ours, not SPEC.md's) so nobody can make the server hash a megabyte. */
export const MAX_USERNAME_LENGTH = 64;
export const MAX_PASSWORD_LENGTH = 256;
