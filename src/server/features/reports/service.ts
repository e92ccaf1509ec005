import type { LicenceQuery, ReportPeriod } from '../../../common/reports.js';
import type { Database } from '../../db/client.js';
import type { SessionUser } from '../../plugins/auth.js';
import { asRunBetween, type AsRunRow } from '../as-run/service.js';
import { licenceFieldsOf } from '../library/service.js';
import { sessionsOverlapping } from '../listeners/service.js';
import { asRunFile, ccliFile, licenceCheck, soundExchangeFile } from './licence.js';
import { listenerReport } from './listener-report.js';
import { periodInstants } from './period.js';

export { retentionDays, saveRetentionDays } from '../as-run/service.js';

/** What a signed-in user may see: admins and superusers everything, a presenter their own programmes only. */
export function scopeOf(user: SessionUser, programme?: string) {
  return { programmeId: programme, presenterId: user.role === 'presenter' ? user.id : undefined };
}

/**
 * The period's plays, the library's fields over what was kept at air time where staff filled them in since
 * (a fix in the Library tab shows in the next download); an item deleted since keeps what it aired with.
 */
export async function playsOf(
  db: Database,
  period: ReportPeriod,
  timeZone: string,
  scope: { programmeId?: string; presenterId?: string },
): Promise<AsRunRow[]> {
  const { from, to } = periodInstants(period, timeZone);
  const rows = await asRunBetween(db, new Date(from), new Date(to), scope);
  const ids = [...new Set(rows.flatMap((r) => (r.mediaId ? [r.mediaId] : [])))];
  const library = await licenceFieldsOf(db, ids);
  return rows.map((row) => {
    const now = row.mediaId ? library.get(row.mediaId) : undefined;
    if (!now) return row;
    return {
      ...row,
      title: now.title || row.title,
      artist: now.artist || row.artist,
      album: now.album || row.album,
      label: now.label || row.label,
      isrc: now.isrc || row.isrc,
      composer: now.composer || row.composer,
      ccliSongNumber: now.ccliSongNumber || row.ccliSongNumber,
      licenceClass: row.kind === 'library' ? now.licenceClass : row.licenceClass,
    };
  });
}

export async function checkLicence(db: Database, query: LicenceQuery, timeZone: string, user: SessionUser) {
  return licenceCheck(query.format, await playsOf(db, query, timeZone, scopeOf(user, query.programme)));
}

/** The file of a licence format for the period: its name, type and text. */
export async function licenceFile(
  db: Database,
  query: LicenceQuery,
  station: { name: string; timeZone: string },
  user: SessionUser,
) {
  const plays = await playsOf(db, query, station.timeZone, scopeOf(user, query.programme));
  const stem = `${query.format}-${query.from}-to-${query.to}`;
  switch (query.format) {
    case 'soundexchange':
      return {
        name: `${stem}.txt`,
        type: 'text/tab-separated-values; charset=utf-8',
        body: soundExchangeFile(plays, { name: station.name, category: query.category }),
      };
    case 'ccli':
      return {
        name: `${stem}.csv`,
        type: 'text/csv; charset=utf-8',
        body: ccliFile(plays, station.timeZone),
      };
    case 'csv':
      return {
        name: `as-run-${query.from}-to-${query.to}.csv`,
        type: 'text/csv; charset=utf-8',
        body: asRunFile(plays, station.timeZone),
      };
  }
}

/** The listener report of a period, for the station or (a programme, a presenter) its programmes' airtime. */
export async function listenersFor(db: Database, period: ReportPeriod, timeZone: string, user: SessionUser) {
  const scope = scopeOf(user, period.programme);
  const { from, to } = periodInstants(period, timeZone);
  const [plays, sessions] = await Promise.all([
    playsOf(db, period, timeZone, scope),
    sessionsOverlapping(db, new Date(from), new Date(to)),
  ]);
  return listenerReport({
    period,
    timeZone,
    from,
    to,
    sessions,
    plays,
    onlyPlays: !!(scope.programmeId || scope.presenterId),
    geoip: sessions.some((s) => s.country),
  });
}
