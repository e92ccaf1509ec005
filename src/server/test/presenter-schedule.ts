import { PRESENTER_EARLY_MINUTES } from '../../common/presenters.js';
import type { PresenterSchedule, PresenterWindow } from '../features/presenters/service.js';

/** A presenter's programme, as a test puts it on its in-memory schedule. */
export interface TestProgramme {
  presenterId: string;
  programmeTitle: string;
  startsAt: Date;
  endsAt: Date;
}

/** The schedule as tests set it: programmes live from a presenter, held in memory. */
export function inMemoryPresenterSchedule(programmes: TestProgramme[] = []) {
  const windowOf = (p: TestProgramme): PresenterWindow => ({
    programmeTitle: p.programmeTitle,
    opensAt: new Date(p.startsAt.getTime() - PRESENTER_EARLY_MINUTES * 60_000),
    startsAt: p.startsAt,
    endsAt: p.endsAt,
  });
  const schedule: PresenterSchedule & { programmes: TestProgramme[] } = {
    programmes,
    window(presenterId, now) {
      const at = now.getTime();
      const found = programmes
        .filter((p) => p.presenterId === presenterId)
        .map(windowOf)
        .find((w) => w.opensAt.getTime() <= at && at < w.endsAt.getTime());
      return found ?? null;
    },
    upcoming(presenterId, now, hours) {
      const at = now.getTime();
      return programmes
        .filter((p) => p.presenterId === presenterId)
        .map(windowOf)
        .filter((w) => w.endsAt.getTime() > at && w.startsAt.getTime() <= at + hours * 3_600_000)
        .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
    },
  };
  return schedule;
}
