import { ChatCard } from '../../../features/chat';
import { PrayerCard } from '../../../features/prayer';

/** SPEC.md section 2 home row 4: prayer and chat side by side. */
export default function Community() {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <PrayerCard />
      <ChatCard />
    </div>
  );
}
