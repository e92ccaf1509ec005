import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Program } from '../../../common/programs';
import { PROGRAMS_REFETCH_MS } from '../../../common/ui';
import { readList } from '../../lib/api-request';

export const PROGRAMS_TODAY_PATH = '/api/programs/today';

export const programsTodayQuery = () =>
  queryOptions({ queryKey: [PROGRAMS_TODAY_PATH], queryFn: () => readList<Program>(PROGRAMS_TODAY_PATH) });

/** SPEC.md section 7: today's programs are refetched every 30 s and on focus. */
export function useProgramsToday() {
  return useQuery({
    ...programsTodayQuery(),
    refetchInterval: PROGRAMS_REFETCH_MS,
    refetchOnWindowFocus: 'always',
  });
}
