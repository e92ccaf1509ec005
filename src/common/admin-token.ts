/** SPEC.md section 9: the admin token lives in session storage under this key. */
export const ADMIN_TOKEN_KEY = 'adminToken';
