import { Suspense } from 'react';
import { pageMeta } from '../../../common/page-meta';
import { Breadcrumb } from '../../components/layout/breadcrumb';
import { Header } from '../../components/layout/header';
import { getStation } from '../../lib/station';
import { usePageMeta } from '../../lib/use-page-meta';
import { PlayerBanner, useSubtitlesEnabled } from '../../features/player';
import { SubtitleOverlay, SubtitleTopDock } from '../../features/subtitles';
import { InstallBanner } from '../../features/install';
import { deferredSection } from './deferred-section';
import { usePrefetchOnActivity } from './use-prefetch-on-activity';

// Below the player, each section's code loads as it comes near the screen (docs/decisions/019).
const Programs = deferredSection('programs', () => import('./sections/programs'));
const Featured = deferredSection('featured', () => import('./sections/featured'));
const Community = deferredSection('community', () => import('./sections/community'));
const Sharing = deferredSection('sharing', () => import('./sections/sharing'));
const Recorder = deferredSection('recorder', () => import('./sections/recorder'));
const Impact = deferredSection('impact', () => import('./sections/impact'));
const Newsletter = deferredSection('newsletter', () => import('./sections/newsletter'));
const SiteFooter = deferredSection('footer', () => import('./sections/site-footer'));

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
      {/* The header and, when placed at the top, the captions: one band that stays at the top. */}
      <div className="sticky top-0 z-40">
        <Header />
        <SubtitleTopDock />
      </div>
      <Breadcrumb items={[{ label: 'Radio Ministry' }]} />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 space-y-12 px-4 py-8">
        {/* Inside the landmark, so a screen reader's landmark navigation reaches it (axe: region). */}
        <p className="sr-only">{meta.hiddenText}</p>
        <PlayerBanner />
        <Programs />
        <Featured />
        <Community />
        <Sharing />
        <Recorder />
        <Impact />
        <Newsletter />
      </main>
      <SiteFooter />
      <InstallBanner />
      {subtitles && (
        <Suspense fallback={null}>
          <SubtitleOverlay />
        </Suspense>
      )}
    </div>
  );
}
