import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  licenceCheckSchema,
  listenerReportSchema,
  retentionSchema,
  type LicenceFormat,
} from '../../../common/reports';
import { apiDownload, apiGetParsed, apiSend } from '../../lib/api-request';

export const REPORTS_PATH = '/api/admin/reports';

export interface Period {
  from: string;
  to: string;
  programme?: string;
}

const periodQuery = ({ from, to, programme }: Period) =>
  new URLSearchParams({ from, to, ...(programme ? { programme } : {}) }).toString();

export const licenceUrl = (period: Period, format: LicenceFormat, category: string) =>
  `${REPORTS_PATH}/licence?${periodQuery(period)}&${new URLSearchParams({ format, category })}`;

export const licenceCheckQuery = (period: Period, format: LicenceFormat, category: string) =>
  queryOptions({
    queryKey: [REPORTS_PATH, 'check', period, format, category],
    queryFn: () =>
      apiGetParsed(
        `${REPORTS_PATH}/licence/check?${periodQuery(period)}&${new URLSearchParams({ format, category })}`,
        licenceCheckSchema,
      ),
  });

export function useLicenceCheck(period: Period | null, format: LicenceFormat, category: string) {
  return useQuery({
    ...licenceCheckQuery(period ?? { from: '', to: '' }, format, category),
    enabled: period !== null,
    retry: false,
  });
}

export const listenerReportQuery = (period: Period) =>
  queryOptions({
    queryKey: [REPORTS_PATH, 'listeners', period],
    queryFn: () => apiGetParsed(`${REPORTS_PATH}/listeners?${periodQuery(period)}`, listenerReportSchema),
  });

export function useListenerReport(period: Period | null) {
  return useQuery({
    ...listenerReportQuery(period ?? { from: '', to: '' }),
    enabled: period !== null,
    retry: false,
  });
}

/** Hands a file to the browser as a download. */
export function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Let the download start before the address is released.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The licence file needs the bearer token, so it is fetched and handed to the browser. */
export function useDownloadLicence() {
  return useMutation({
    mutationFn: async (input: { period: Period; format: LicenceFormat; category: string }) => {
      const blob = await apiDownload(licenceUrl(input.period, input.format, input.category));
      const stem = input.format === 'csv' ? 'as-run' : input.format;
      saveFile(
        blob,
        `${stem}-${input.period.from}-to-${input.period.to}.${input.format === 'soundexchange' ? 'txt' : 'csv'}`,
      );
    },
  });
}

const RETENTION_PATH = `${REPORTS_PATH}/retention`;

/** How long the station keeps the as-run log and listener sessions (admins read it, superusers set it). */
export const retentionQuery = () =>
  queryOptions({
    queryKey: [RETENTION_PATH],
    queryFn: () => apiGetParsed(RETENTION_PATH, retentionSchema),
  });

export const useRetention = () => useQuery(retentionQuery());

export function useSaveRetention() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (days: number) => apiSend('PUT', RETENTION_PATH, { days }, retentionSchema),
    onSuccess: (saved) => queryClient.setQueryData(retentionQuery().queryKey, saved),
  });
}
