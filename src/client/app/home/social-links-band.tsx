import Podcast from 'lucide-react/icons/podcast';
import { FacebookIcon, InstagramIcon, YouTubeIcon } from '../../components/brand-icons';
import { stationLink } from '../../lib/station';

// SPEC.md section 2 item 9: a social link staff have not set in the Station tab stays the placeholder '#';
// the podcast is the station's own sermon feed.
const socialLinks = () => [
  { label: 'Facebook', icon: FacebookIcon, href: stationLink('facebook') },
  { label: 'YouTube', icon: YouTubeIcon, href: stationLink('youtube') },
  { label: 'Instagram', icon: InstagramIcon, href: stationLink('instagram') },
  { label: 'Podcast', icon: Podcast, href: '/podcast.xml' },
];

export function SocialLinksBand() {
  return (
    <section
      aria-labelledby="social-title"
      className="bg-gradient-to-r from-blue-900 via-blue-800 to-blue-900 text-white"
    >
      <div className="mx-auto flex max-w-6xl flex-col items-center gap-4 px-4 py-8 text-center">
        <h2 id="social-title" className="text-xl font-semibold">
          Follow the ministry
        </h2>
        <ul className="flex flex-wrap justify-center gap-3">
          {socialLinks().map(({ label, icon: Icon, href }) => (
            <li key={label}>
              <a
                href={href}
                className="inline-flex items-center gap-2 rounded-full bg-white/10 px-4 py-2 text-sm font-medium hover:bg-white/20 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
              >
                <Icon className="h-5 w-5 text-amber-300" aria-hidden="true" />
                {label}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
