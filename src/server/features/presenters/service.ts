import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  PRESENTER_EARLY_MINUTES,
  PRESENTER_TEXT,
  type EncoderSettings,
  type MyBroadcast,
} from '../../../common/presenters.js';
import { STREAM_PATH } from '../../../common/radio.js';
import type { Database } from '../../db/client.js';
import {
  AccountError,
  findAccountById,
  findAccountByUsername,
  listActivePresenters,
  USER_NOT_FOUND,
  type Account,
} from '../accounts/service.js';
import * as repo from './repository.js';
import type { PresenterSchedule, PresenterWindow } from './schedule.js';

/**
 * Presenters: their own live-input passwords and their "My broadcast" area. The one way in for the rest of
 * the server (the live input checks a presenter's encoder here).
 */

export type { PresenterSchedule, PresenterWindow } from './schedule.js';

/** 18 random bytes: 24 characters an encoder's password field takes as they are. */
const PASSWORD_BYTES = 18;
const digest = (password: string) => createHash('sha256').update(password).digest();
/** Compared against when a username has no password, so a miss costs what a hit does. */
const NO_PASSWORD = digest(randomBytes(PASSWORD_BYTES).toString('base64url'));

/**
 * A new source password for a presenter: returned once, only its SHA-256 is kept (it is random, so a fast
 * hash is enough), and the old one stops working at once.
 */
export async function rotateSourcePassword(db: Database, presenterId: string, now = new Date()) {
  const account = await findAccountById(db, presenterId);
  if (!account) throw new AccountError(USER_NOT_FOUND, 404);
  if (account.role !== 'presenter') throw new AccountError(PRESENTER_TEXT.notAPresenter, 409);
  const sourcePassword = randomBytes(PASSWORD_BYTES).toString('base64url');
  try {
    await repo.saveSourcePassword(db, presenterId, digest(sourcePassword).toString('hex'), now);
  } catch (error) {
    // Deleted between the check and the write (the row's foreign key refuses it).
    if (!(await findAccountById(db, presenterId))) throw new AccountError(USER_NOT_FOUND, 404);
    throw error;
  }
  return sourcePassword;
}

/**
 * The presenter whose username and source password these are, or undefined: an active presenter account
 * with a source password that matches (compared in constant time).
 */
export async function presenterBySourcePassword(
  db: Database,
  username: string,
  password: string,
): Promise<Account | undefined> {
  const account = username ? await findAccountByUsername(db, username) : undefined;
  const stored = account && (await repo.findSourcePassword(db, account.id));
  const expected = stored ? Buffer.from(stored.passwordHash, 'hex') : NO_PASSWORD;
  const given = digest(password);
  const matches = expected.length === given.length && timingSafeEqual(given, expected);
  if (!matches || !stored || !account || account.role !== 'presenter' || !account.isActive) return undefined;
  return account;
}

/** The window `now` falls in for this presenter, as the schedule says, checked against its own bounds. */
export async function openWindow(
  schedule: PresenterSchedule,
  presenterId: string,
  now: Date,
): Promise<PresenterWindow | null> {
  const window = await schedule.window(presenterId, now);
  if (!window) return null;
  // Never earlier than PRESENTER_EARLY_MINUTES before the start, whatever the schedule says.
  const opensAt = Math.max(
    window.opensAt.getTime(),
    window.startsAt.getTime() - PRESENTER_EARLY_MINUTES * 60_000,
  );
  const at = now.getTime();
  return opensAt <= at && at < window.endsAt.getTime() ? { ...window, opensAt: new Date(opensAt) } : null;
}

/** Where an encoder connects: the station's public address (or the broadcaster's), its /stream mount. */
export function encoderSettings(origin: string, username: string): EncoderSettings {
  const url = new URL(origin);
  const tls = url.protocol === 'https:';
  return {
    server: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || (tls ? 443 : 80)),
    tls,
    mount: STREAM_PATH,
    username,
  };
}

const slot = (window: PresenterWindow) => ({
  programmeTitle: window.programmeTitle,
  opensAt: window.opensAt.toISOString(),
  startsAt: window.startsAt.toISOString(),
  endsAt: window.endsAt.toISOString(),
});

/** A presenter's own area: who they are, their encoder's settings, their programmes in the next `hours`. */
export async function myBroadcast(
  db: Database,
  schedule: PresenterSchedule,
  presenter: { id: string; username: string },
  options: { origin: string; hours: number; now?: Date },
): Promise<MyBroadcast> {
  const now = options.now ?? new Date();
  const stored = await repo.findSourcePassword(db, presenter.id);
  const upcoming = await schedule.upcoming(presenter.id, now, options.hours);
  return {
    id: presenter.id,
    username: presenter.username,
    encoder: encoderSettings(options.origin, presenter.username),
    sourcePasswordSetAt: stored?.setAt.toISOString() ?? null,
    upcoming: upcoming.map(slot),
  };
}

/** Whom a programme can be given to. */
export async function listPresenters(db: Database) {
  return (await listActivePresenters(db)).map(({ id, username }) => ({ id, username }));
}
