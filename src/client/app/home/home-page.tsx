import { Suspense } from 'react';
import { pageMeta } from '../../../common/page-meta';
import { Breadcrumb } from '../../components/layout/breadcrumb';
import { Footer } from '../../components/layout/footer';
import { Header } from '../../components/layout/header';
import { getStation } from '../../lib/station';
import { usePageMeta } from '../../lib/use-page-meta';
import { PlayerBanner, useSubtitlesEnabled } from '../../features/player';
import { SubtitleOverlay } from '../../features/subtitles';
import { RecorderSection } from '../../features/recorder';
import { ChatCard } from '../../features/chat';
import { FeaturedSection } from '../../features/featured-content';
import { InstallBanner } from '../../features/install';
import { NewsletterRow } from '../../features/newsletter';
import { PrayerCard } from '../../features/prayer';
import { MobileExperienceCard } from './mobile-experience-card';
import { ProgramsSection } from '../../features/programs';
import { ViralImpactCard } from '../../features/sharing';
import { ShareCard } from './share-card';
import { SocialLinksBand } from './social-links-band';
import { usePrefetchOnActivity } from './use-prefetch-on-activity';

/**
 * SPEC.md section 2: the home page, sections top to bottom. Each section is its own component; a feature
 * adds its section at its place in this list (player banner first, prayer/chat row after Featured, ...).
 */
export function HomePage() {
  const meta = pageMeta(getStation());
  usePageMeta(meta);
  usePrefetchOnActivity();
  const [subtitles] = useSubtitlesEnabled();

  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <Header />
      <Breadcrumb items={[{ label: 'Radio Ministry' }]} />
      <p className="sr-only">{meta.hiddenText}</p>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 space-y-12 px-4 py-8">
        <PlayerBanner />
        <ProgramsSection />
        <FeaturedSection />
        <div className="grid gap-6 lg:grid-cols-2">
          <PrayerCard />
          <ChatCard />
        </div>
        <div className="grid gap-6 lg:grid-cols-2">
          <ShareCard />
          <MobileExperienceCard />
        </div>
        <RecorderSection />
        <ViralImpactCard />
        <NewsletterRow />
      </main>
      <SocialLinksBand />
      <Footer />
      <InstallBanner />
      {subtitles && (
        <Suspense fallback={null}>
          <SubtitleOverlay />
        </Suspense>
      )}
    </div>
  );
}
