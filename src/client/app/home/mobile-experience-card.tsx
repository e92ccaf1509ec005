import BellRing from 'lucide-react/icons/bell-ring';
import Headphones from 'lucide-react/icons/headphones';
import MonitorSmartphone from 'lucide-react/icons/monitor-smartphone';
import Smartphone from 'lucide-react/icons/smartphone';
import WifiOff from 'lucide-react/icons/wifi-off';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';

const FEATURES = [
  { icon: Smartphone, text: 'Install the station on your home screen like an app' },
  { icon: Headphones, text: 'Keep listening in the background and from the lock screen' },
  { icon: MonitorSmartphone, text: 'Works on phones, tablets and computers' },
  { icon: WifiOff, text: 'Opens quickly, even on a slow connection' },
  { icon: BellRing, text: 'Live subtitles, chat and prayer wherever you are' },
];

/** SPEC.md section 2 item 5: the 'Mobile Experience' feature list. */
export function MobileExperienceCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-blue-950">
          <Smartphone className="h-5 w-5 text-amber-500" aria-hidden="true" />
          Mobile Experience
        </CardTitle>
        <CardDescription>Take the live broadcast with you wherever you go.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="space-y-3">
          {FEATURES.map(({ icon: Icon, text }) => (
            <li key={text} className="flex items-start gap-3 text-sm text-slate-800">
              <Icon className="mt-0.5 h-4 w-4 shrink-0 text-blue-800" aria-hidden="true" />
              {text}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
