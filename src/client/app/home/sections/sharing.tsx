import { MobileExperienceCard } from '../mobile-experience-card';
import { ShareCard } from '../share-card';

/** SPEC.md section 2 home row 5: the share card and the app card side by side. */
export default function Sharing() {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <ShareCard />
      <MobileExperienceCard />
    </div>
  );
}
