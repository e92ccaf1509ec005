/**
 * What the schedule says about a presenter's programmes. The live input asks `window` on every connection
 * of a presenter's encoder; "My broadcast" lists `upcoming`. The schedule's planner provides it (programmes
 * "live from a presenter": features/on-air `OnAir.presenters`).
 */
export interface PresenterWindow {
  /** When the presenter's encoder is first let in: PRESENTER_EARLY_MINUTES before `startsAt`. */
  opensAt: Date;
  /** When the programme starts on air. */
  startsAt: Date;
  /** When the programme ends: the encoder is refused from then on. */
  endsAt: Date;
  programmeTitle: string;
}

type MaybePromise<T> = T | Promise<T>;

export interface PresenterSchedule {
  /** The programme whose window (opensAt <= now < endsAt) holds `now` for this presenter, or null. */
  window(presenterId: string, now: Date): MaybePromise<PresenterWindow | null>;
  /** The presenter's programmes ending after `now` and starting within `hours` of it, earliest first. */
  upcoming(presenterId: string, now: Date, hours: number): MaybePromise<PresenterWindow[]>;
}
