import type { LicenceQuery, ReportPeriod } from '../../../common/reports.js';
import type { Database } from '../../db/client.js';
import type { SessionUser } from '../../plugins/auth.js';
import {
  airtimesBetween,
  asRunBetween,
  playsPerItemBetween,
  programmeFiguresBetween,
  type AsRunRow,
  type ItemPlays,
} from '../as-run/service.js';
import { licenceFieldsOf } from '../library/service.js';
import { sessionSpansOverlapping } from '../listeners/service.js';
import { asRunFile, ccliFile, licenceCheck, soundExchangeFile, type Play } from './licence.js';
import { listenerReport } from './listener-report.js';
import { periodInstants } from './period.js';

export { retentionDays, saveRetentionDays } from '../as-run/service.js';

/** What a signed-in user may see: admins and superusers everything, a presenter their own programmes only. */
export function scopeOf(user: SessionUser, programme?: string) {
  return { programmeId: programme, presenterId: user.role === 'presenter' ? user.id : undefined };
}

type Scope = { programmeId?: string; presenterId?: string };

/**
 * Rows with the library's fields over what was kept at air time where staff filled them in since (a fix in the
 * Library tab shows in the next download); an item deleted since keeps what it aired with.
 */
async function withLibraryFields<T extends Omit<AsRunRow, 'id' | 'startedAt' | 'endedAt'> | ItemPlays>(
  db: Database,
  rows: T[],
): Promise<T[]> {
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

/** Every as-run row of the period (the as-run CSV). */
export async function playsOf(db: Database, period: ReportPeriod, timeZone: string, scope: Scope) {
  const { from, to } = periodInstants(period, timeZone);
  return withLibraryFields(db, await asRunBetween(db, new Date(from), new Date(to), scope));
}

/** The period's plays per item as aired (the licence files). */
async function itemPlaysOf(
  db: Database,
  period: ReportPeriod,
  timeZone: string,
  scope: Scope,
): Promise<Play[]> {
  const { from, to } = periodInstants(period, timeZone);
  return withLibraryFields(db, await playsPerItemBetween(db, new Date(from), new Date(to), scope));
}

export async function checkLicence(db: Database, query: LicenceQuery, timeZone: string, user: SessionUser) {
  return licenceCheck(query.format, await itemPlaysOf(db, query, timeZone, scopeOf(user, query.programme)));
}

/** The file of a licence format for the period: its name, type and text. */
export async function licenceFile(
  db: Database,
  query: LicenceQuery,
  station: { name: string; timeZone: string },
  user: SessionUser,
) {
  const scope = scopeOf(user, query.programme);
  const stem = `${query.format}-${query.from}-to-${query.to}`;
  switch (query.format) {
    case 'soundexchange':
      return {
        name: `${stem}.txt`,
        type: 'text/tab-separated-values; charset=utf-8',
        body: soundExchangeFile(await itemPlaysOf(db, query, station.timeZone, scope), {
          name: station.name,
          category: query.category,
        }),
      };
    case 'ccli':
      return {
        name: `${stem}.csv`,
        type: 'text/csv; charset=utf-8',
        body: ccliFile(await itemPlaysOf(db, query, station.timeZone, scope), station.timeZone),
      };
    case 'csv':
      return {
        name: `as-run-${query.from}-to-${query.to}.csv`,
        type: 'text/csv; charset=utf-8',
        body: asRunFile(await playsOf(db, query, station.timeZone, scope), station.timeZone),
      };
  }
}

/** The listener report of a period, for the station or (a programme, a presenter) its programmes' airtime. */
export async function listenersFor(db: Database, period: ReportPeriod, timeZone: string, user: SessionUser) {
  const scope = scopeOf(user, period.programme);
  const { from, to } = periodInstants(period, timeZone);
  const onlyPlays = !!(scope.programmeId || scope.presenterId);
  const [programmes, windows, sessions] = await Promise.all([
    programmeFiguresBetween(db, new Date(from), new Date(to), scope),
    onlyPlays ? airtimesBetween(db, new Date(from), new Date(to), scope) : Promise.resolve(null),
    sessionSpansOverlapping(db, new Date(from), new Date(to)),
  ]);
  return listenerReport({
    period,
    timeZone,
    from,
    to,
    sessions,
    programmes,
    windows: windows?.map((w) => ({ start: w.start.getTime(), end: w.end!.getTime() })) ?? null,
    geoip: sessions.some((s) => s.country),
  });
}
