import Radio from 'lucide-react/icons/radio';
import type { Program } from '../../../../common/programs';
import { PROGRAM_SKELETON_COUNT } from '../../../../common/ui';
import { Badge } from '../../../components/ui/badge';
import { Skeleton } from '../../../components/ui/skeleton';
import { getStation } from '../../../lib/station';
import { useQueryAsServed } from '../../../lib/use-browser-value';
import { useProgramsToday } from '../api';
import { ProgramCard } from './program-card';

/** SPEC.md section 4: the LIVE entry is left out; the fixed 'Live Broadcasting Now' card stands for it. */
export function listedPrograms(programs: Program[]): Program[] {
  return programs.filter((program) => program.status !== 'LIVE');
}

function LiveBroadcastingCard({ onAir }: { onAir?: Program }) {
  return (
    <div className="rounded-xl bg-gradient-to-r from-blue-900 to-blue-800 p-5 text-white shadow-md">
      <div className="flex items-center gap-3">
        <span className="relative flex h-3 w-3" aria-hidden="true">
          <span className="absolute inline-flex h-full w-full animate-ping rounded-full bg-red-400 opacity-75" />
          <span className="relative inline-flex h-3 w-3 rounded-full bg-red-500" />
        </span>
        <h3 className="text-lg font-semibold">Live Broadcasting Now</h3>
        <Badge variant="live">LIVE</Badge>
      </div>
      <p className="mt-2 text-sm text-blue-100">
        {onAir
          ? `On air: ${onAir.title}`
          : `${getStation().name} is on the air around the clock with worship, teaching and prayer.`}
      </p>
    </div>
  );
}

export function ProgramsSection() {
  const { data, isPending, isError } = useQueryAsServed(useProgramsToday());
  const programs = listedPrograms(data ?? []);
  const onAir = data?.find((program) => program.status === 'LIVE');

  return (
    <section id="programs" aria-labelledby="programs-title" className="scroll-mt-24">
      <div className="mb-4 flex items-center gap-2">
        <Radio className="h-6 w-6 text-amber-500" aria-hidden="true" />
        <h2 id="programs-title" className="text-2xl font-bold text-blue-950">
          Today's Programs
        </h2>
      </div>
      <LiveBroadcastingCard onAir={onAir} />
      <h3 className="mb-3 mt-6 text-lg font-semibold text-blue-900">Upcoming Programs</h3>
      {isPending ? (
        <div className="grid gap-3 sm:grid-cols-2" aria-busy="true" aria-label="Loading programs">
          {Array.from({ length: PROGRAM_SKELETON_COUNT }, (_, i) => (
            <Skeleton key={i} className="h-28" />
          ))}
        </div>
      ) : isError && !data ? (
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-slate-700">
          Today's schedule could not be loaded. It will appear here shortly.
        </p>
      ) : programs.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-700">
          Upcoming programs will appear here
        </p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {programs.map((program) => (
            <ProgramCard key={program.id} program={program} />
          ))}
        </ul>
      )}
    </section>
  );
}
