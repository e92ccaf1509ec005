import { createHash, randomBytes } from 'node:crypto';
import type { Role } from '../../../common/accounts.js';
import { INVALID_CREDENTIALS, type LoginResponse, type UserListItem } from '../../../common/admin.js';
import type { Database } from '../../db/client.js';
import { USERNAME_INVISIBLE_MESSAGE, USERNAME_MIXED_SCRIPTS_MESSAGE } from '../../../common/admin.js';
import { hasNoInvisibleCharacters, isSingleScript, usernameKey } from '../../../common/text.js';
import { AccountError } from './errors.js';
import { hashPassword } from './passwords.js';
import { passwordMatches, prepareDummyHash } from './password-check.js';
import * as repo from './repository.js';
import type { SharedRedis } from '../../plugins/redis.js';
import { openSharedSignInThrottle } from './shared-sign-in-throttle.js';
import { SignInThrottle, type SignInLimiter, type ThrottleLimits } from './sign-in-throttle.js';

/**
 * Staff accounts: sign-in, sessions, users and roles, passwords. The one way in for the rest of the
 * server (start-up, the shell CLI, the auth plugin's session lookup, other features' tests).
 */

export { AccountError, TooManyAttemptsError } from './errors.js';
export { PasswordCheckBusyError, passwordCheckMetrics } from './password-check.js';
/** One key per attacker-sized network (an IPv4 address or an IPv6 /64); the chat's mutes use it too. */
export { addressKey } from './address-key.js';
/** Whether a password matches a stored hash (the CLI and start-up tests check what was stored). */
export { verifyPassword } from './passwords.js';
export {
  SIGN_IN_LIMITS,
  SignInThrottle,
  type SignInLimiter,
  type ThrottleLimits,
} from './sign-in-throttle.js';
export { openSharedSignInThrottle } from './shared-sign-in-throttle.js';

/**
 * A limit on guessing another password (the live input's) that works as sign-in's does: per address, per
 * "username" from every address, a right password never counting; in Redis when it is set, under `scope`.
 */
export async function openGuessLimiter(
  redis: SharedRedis | undefined,
  scope: string,
  limits: ThrottleLimits,
): Promise<SignInLimiter> {
  return redis ? openSharedSignInThrottle(redis, limits, scope) : new SignInThrottle(limits);
}
export type { SessionUser } from './repository.js';
export { INVALID_CREDENTIALS };

export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';
export const SIGN_IN_BUSY = 'Too many sign-in attempts right now. Please wait a minute and try again.';
export const USER_NOT_FOUND = 'User not found';
export const PRESENTER_BY_SUPERUSER = 'Only a superuser can create presenter accounts';
export const LAST_SUPERUSER = {
  demote: 'The last active superuser cannot be made an admin. Make another superuser first.',
  deactivate: 'The last active superuser cannot be deactivated. Make another superuser first.',
  delete: 'The last active superuser cannot be deleted. Make another superuser first.',
};
export const NOT_YOURSELF = {
  deactivate: 'You cannot deactivate your own account',
  delete: 'You cannot delete your own account',
};

/**
 * A session lasts a fixed 12 hours from sign-in (a working day at the station), then the staff member
 * signs in again. Fixed rather than sliding: no write on every request, and a stolen token dies on time.
 */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
const TOKEN_BYTES = 32;
/** base64url of 32 bytes is 43 characters; anything else is not one of our tokens. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Starts a session: the token is returned once, only its SHA-256 is stored. */
export async function issueSession(db: Database, userId: string, now = new Date()) {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  const sessionId = await repo.insertSession(db, { userId, tokenHash: hashToken(token), expiresAt }, now);
  return { token, expiresAt, sessionId };
}

/**
 * The signed-in user behind a bearer token, read fresh on every request so that deactivation,
 * deletion, role changes and revocation apply at once. Null when the token is unknown, expired,
 * revoked, or its user is inactive or gone.
 */
export async function findSessionUser(db: Database, token: string): Promise<repo.SessionUser | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  return repo.findLiveSession(db, hashToken(token), new Date());
}

/** Ending sessions is always revocation: one session (sign-out), or all of a user's but one. */
export const signOut = (db: Database, sessionId: string) => repo.revokeSessions(db, { sessionId });
const signOutEverywhere = (db: Database, userId: string, exceptSessionId?: string) =>
  repo.revokeSessions(db, { userId, exceptSessionId });

/** Readies the dummy hash that makes an unknown username cost the same as a known one. */
export const prepareSignIn = () => void prepareDummyHash();

/** SPEC.md section 7: throttled, one argon2 check whether or not the user exists, one message for every miss. */
export async function signIn(
  db: Database,
  throttle: SignInLimiter,
  attempt: { username: string; password: string; address: string },
): Promise<LoginResponse> {
  const { username, password, address } = attempt;
  await throttle.enter(username, address);
  const user = await repo.findUserByUsername(db, username);
  const matches = await passwordMatches(user?.passwordHash, password);
  if (!user || !matches || user.isActive !== 'true') throw new AccountError(INVALID_CREDENTIALS, 401);
  await throttle.succeeded(username, address);
  const now = new Date();
  const session = await issueSession(db, user.id, now);
  await repo.setLastLogin(db, user.id, now);
  return {
    token: session.token,
    expiresAt: session.expiresAt.toISOString(),
    user: { id: user.id, username: user.username, role: user.role },
  };
}

/** Guessing the current password with a stolen token is throttled like signing in; other sessions end. */
export async function changePassword(
  db: Database,
  throttle: SignInLimiter,
  staff: repo.SessionUser,
  change: { currentPassword: string; newPassword: string; address: string },
) {
  await throttle.enter(staff.username, change.address);
  const user = await repo.findUserById(db, staff.id);
  if (!(await passwordMatches(user?.passwordHash, change.currentPassword))) {
    throw new AccountError(WRONG_CURRENT_PASSWORD, 400);
  }
  await throttle.succeeded(staff.username, change.address);
  await repo.setPasswordHash(db, { id: staff.id }, await hashPassword(change.newPassword));
  await signOutEverywhere(db, staff.id, staff.sessionId);
}

/** An account as other features see it (never its hash); undefined when there is none. */
export interface Account {
  id: string;
  username: string;
  role: Role;
  isActive: boolean;
}
const toAccount = (row: repo.UserRow | undefined): Account | undefined =>
  row && { id: row.id, username: row.username, role: row.role, isActive: row.isActive === 'true' };

export const findAccountById = async (db: Database, id: string) => toAccount(await repo.findUserById(db, id));
export const findAccountByUsername = async (db: Database, username: string) =>
  toAccount(await repo.findUserByUsername(db, username));

/** The active presenters, by name: whom a programme can be given to. */
export async function listActivePresenters(db: Database): Promise<Account[]> {
  return (await repo.listUserRows(db))
    .map((row) => toAccount(row)!)
    .filter((account) => account.role === 'presenter' && account.isActive)
    .sort((a, b) => a.username.localeCompare(b.username));
}

/** SPEC.md section 3's user list item: what the User Management tab shows, never the hash. */
const toUserListItem = (row: repo.UserRow): UserListItem => ({
  id: row.id,
  username: row.username,
  role: row.role,
  isActive: row.isActive === 'true',
  createdAt: row.createdAt.toISOString(),
  lastLogin: row.lastLogin?.toISOString() ?? null,
});

export async function listUsers(db: Database) {
  return (await repo.listUserRows(db)).map(toUserListItem);
}

export async function createAdminUser(
  db: Database,
  input: { username: string; password: string; role: Role; createdBy?: string },
) {
  // The shell's `admin create` comes here without the HTTP contract: the look-alike rules hold for both.
  const username = input.username.normalize('NFC');
  if (!hasNoInvisibleCharacters(username)) throw new AccountError(USERNAME_INVISIBLE_MESSAGE, 400);
  if (!isSingleScript(username)) throw new AccountError(USERNAME_MIXED_SCRIPTS_MESSAGE, 400);
  // 'Admin' beside 'admin' (or a compatibility form of it) would pass for the same person.
  const key = usernameKey(username);
  if ((await repo.listUserRows(db)).some((row) => usernameKey(row.username) === key))
    throw new AccountError('Username already exists', 409);
  const user = await repo.insertUser(db, {
    username,
    passwordHash: await hashPassword(input.password),
    role: input.role,
    createdBy: input.createdBy ?? null,
  });
  if (!user) throw new AccountError('Username already exists', 409);
  return user;
}

/** SPEC.md section 6: an admin creates admins only; a superuser chooses the role. */
export async function createUser(
  db: Database,
  creator: { username: string; role: Role },
  input: { username: string; password: string; role: Role },
) {
  if (input.role === 'superuser' && creator.role !== 'superuser') {
    throw new AccountError('Only a superuser can create superuser accounts', 403);
  }
  if (input.role === 'presenter' && creator.role !== 'superuser') {
    throw new AccountError(PRESENTER_BY_SUPERUSER, 403);
  }
  return toUserListItem(await createAdminUser(db, { ...input, createdBy: creator.username }));
}

/** The shell's reset: sets a new password and signs the user out everywhere. */
export async function resetPassword(db: Database, username: string, password: string) {
  const user = await repo.setPasswordHash(db, { username }, await hashPassword(password));
  if (!user) throw new AccountError(`No admin user named "${username}"`, 404);
  await signOutEverywhere(db, user.id);
  return user;
}

async function changeUser<T>(db: Database, userId: string, change: (target: repo.UserChange) => Promise<T>) {
  const changed = await repo.changeUser(db, userId, change);
  if (!changed) throw new AccountError(USER_NOT_FOUND, 404);
  return changed.result;
}

const isLastActiveSuperuser = ({ user, activeSuperusers }: repo.UserChange) =>
  activeSuperusers.length === 1 && activeSuperusers[0] === user.id;

export async function updateRole(db: Database, userId: string, role: Role) {
  return changeUser(db, userId, async (target) => {
    if (role !== 'superuser' && isLastActiveSuperuser(target))
      throw new AccountError(LAST_SUPERUSER.demote, 409);
    return toUserListItem(await target.update({ role }));
  });
}

/** Deactivation signs the user out everywhere at once. */
export async function setActive(db: Database, actorId: string, userId: string, isActive: boolean) {
  const item = await changeUser(db, userId, async (target) => {
    if (!isActive && target.user.id === actorId) throw new AccountError(NOT_YOURSELF.deactivate, 400);
    if (!isActive && isLastActiveSuperuser(target)) throw new AccountError(LAST_SUPERUSER.deactivate, 409);
    return toUserListItem(await target.update({ isActive: isActive ? 'true' : 'false' }));
  });
  if (!isActive) await signOutEverywhere(db, userId);
  return item;
}

/** Deleting a user deletes their sessions with them (foreign key cascade). */
export async function deleteUser(db: Database, actorId: string, userId: string) {
  await changeUser(db, userId, async (target) => {
    if (target.user.id === actorId) throw new AccountError(NOT_YOURSELF.delete, 400);
    if (isLastActiveSuperuser(target)) throw new AccountError(LAST_SUPERUSER.delete, 409);
    await target.remove();
  });
}

/**
 * DESIGN.md section 3: the first start with no admin account creates a superuser from
 * ADMIN_USERNAME/ADMIN_PASSWORD, or `admin` with a random password that is shown once.
 */
export async function ensureFirstSuperuser(
  db: Database,
  fromEnv: { username: string; password: string } | undefined,
): Promise<{ username: string; password?: string } | undefined> {
  if ((await repo.countUsers(db)) > 0) return undefined;
  if (fromEnv) {
    await createAdminUser(db, { ...fromEnv, role: 'superuser' });
    return { username: fromEnv.username };
  }
  const password = randomBytes(12).toString('base64url');
  await createAdminUser(db, { username: 'admin', password, role: 'superuser' });
  return { username: 'admin', password };
}
