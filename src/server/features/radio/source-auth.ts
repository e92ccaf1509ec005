import { PRESENTER_UPCOMING_HOURS } from '../../../common/presenters.js';
import type { LiveSourceOwner } from '../../radio/live-input.js';
import type { SourceAuthorisation } from '../../radio/source-ingest.js';
import { basicCredentials, sameSecret, STATION_SOURCE_USER } from '../../radio/source-password.js';
import type { Account } from '../accounts/service.js';
import { openWindow, type PresenterSchedule, type PresenterWindow } from '../presenters/service.js';

export const AUTHENTICATION_REQUIRED = 'Authentication required';

export interface SourceAuthoriserDeps {
  /** The station's own source password (the Station tab's, else SOURCE_PASSWORD). */
  stationPassword: () => Promise<string | null>;
  /** The active presenter these credentials belong to, if any. */
  presenter: (username: string, password: string) => Promise<Account | undefined>;
  schedule: PresenterSchedule;
  /** The station's time zone, for the times a refused presenter is told. */
  timeZone: () => string;
  log: { warn(details: object, message: string): void; info(details: object, message: string): void };
  now?: () => Date;
}

/** "Sun 29 Nov, 09:55" in the station's time zone: what a presenter's encoder shows them. */
export function stationTime(at: Date, timeZone: string) {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
}

/** The short reason a presenter's encoder is refused outside their programme (403). */
export function notYourSlot(next: PresenterWindow | undefined, timeZone: string) {
  if (!next) return 'Not your slot now: no programme of yours is on the schedule';
  return `Not your slot now: your encoder is let in from ${stationTime(next.opensAt, timeZone)} for "${next.programmeTitle}"`;
}

/**
 * Who may send live audio, asked on every encoder connection and metadata call:
 * - `source` with the station's source password: the superuser's override, at any hour;
 * - a presenter's username with their own source password: only from a few minutes before their programme
 *   until its end (403 with the reason otherwise, logged);
 * - anything else: 401.
 */
export function sourceAuthoriser(deps: SourceAuthoriserDeps) {
  const now = deps.now ?? (() => new Date());
  return async function authorise(
    authorization: string | undefined,
    remote?: string,
  ): Promise<SourceAuthorisation> {
    const credentials = basicCredentials(authorization);
    if (!credentials) return { ok: false, status: 401, message: AUTHENTICATION_REQUIRED };
    const { user, password } = credentials;
    if (user === STATION_SOURCE_USER && sameSecret(password, await deps.stationPassword()))
      return { ok: true, owner: { kind: 'station' } };
    const presenter = await deps.presenter(user, password);
    if (!presenter) {
      deps.log.info({ user, remote }, 'live source refused: wrong source password');
      return { ok: false, status: 401, message: AUTHENTICATION_REQUIRED };
    }
    const at = now();
    const window = await openWindow(deps.schedule, presenter.id, at);
    if (!window) {
      const upcoming = await deps.schedule.upcoming(presenter.id, at, PRESENTER_UPCOMING_HOURS);
      const next = upcoming.find((slot) => slot.opensAt.getTime() > at.getTime());
      const message = notYourSlot(next, deps.timeZone());
      deps.log.warn(
        {
          presenter: presenter.username,
          presenterId: presenter.id,
          remote,
          at: at.toISOString(),
          reason: message,
        },
        'live source refused: presenter outside their programme',
      );
      return { ok: false, status: 403, message };
    }
    const owner: LiveSourceOwner = {
      kind: 'presenter',
      presenterId: presenter.id,
      username: presenter.username,
      programmeTitle: window.programmeTitle,
      opensAt: window.opensAt,
      startsAt: window.startsAt,
      endsAt: window.endsAt,
    };
    deps.log.info(
      { presenter: presenter.username, remote, programme: window.programmeTitle, at: at.toISOString() },
      'presenter encoder let in',
    );
    return { ok: true, owner };
  };
}

export type SourceAuthorise = ReturnType<typeof sourceAuthoriser>;
