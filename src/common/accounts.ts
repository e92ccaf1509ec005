import { z } from 'zod';

/** SPEC.md section 9. */
export const MIN_USERNAME_LENGTH = 3;
export const MIN_PASSWORD_LENGTH = 8;
/**
 * admin and superuser as SPEC.md names them; a presenter signs in only to their own "My broadcast" area and
 * sends their programme live with their own source password.
 */
export const ROLES = ['admin', 'superuser', 'presenter'] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES, { error: 'Role must be admin, superuser or presenter' });
/** The roles that use the admin panel's tabs; a presenter has only "My broadcast". */
export const isStaffRole = (role: Role) => role === 'admin' || role === 'superuser';
// In a module without zod so the listener's request helper can use it without loading zod's runtime.
export { ADMIN_TOKEN_KEY } from './admin-token.js';

/** Upper bounds (ours, not SPEC.md's) so nobody can make the server hash a megabyte. */
export const MAX_USERNAME_LENGTH = 64;
export const MAX_PASSWORD_LENGTH = 256;
