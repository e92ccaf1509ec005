import { FEATURED_SKELETON_COUNT } from '../../../../common/ui';
import { Skeleton } from '../../../components/ui/skeleton';
import { useQueryAsServed } from '../../../lib/use-browser-value';
import { useFeaturedContent, usePlayFeatured } from '../api/featured-content';
import { FeaturedCard } from './featured-card';

export function FeaturedSection() {
  const { data, isPending, isError } = useQueryAsServed(useFeaturedContent());
  const play = usePlayFeatured();

  return (
    <section aria-labelledby="featured-title">
      <h2 id="featured-title" className="mb-4 text-2xl font-bold text-blue-950">
        Featured Content
      </h2>
      {isPending ? (
        <div className="grid gap-4 lg:grid-cols-2" aria-busy="true" aria-label="Loading featured content">
          {Array.from({ length: FEATURED_SKELETON_COUNT }, (_, i) => (
            <Skeleton key={i} className="h-44" />
          ))}
        </div>
      ) : isError || !data || data.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-700">
          Sermons and devotions will appear here soon.
        </p>
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          {data.map((item) => (
            <FeaturedCard key={item.id} item={item} onPlay={(id) => play.mutate(id)} />
          ))}
        </div>
      )}
    </section>
  );
}
