import Sparkles from 'lucide-react/icons/sparkles';
import { Share } from '../../components/share';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { countShare } from '../../features/sharing';
import { getStation } from '../../lib/station';
import { usePageOrigin } from '../../lib/use-browser-value';

/** SPEC.md section 2 item 5: the 'Go Viral with Faith' share card. */
export function ShareCard() {
  const station = getStation();
  const url = `${usePageOrigin()}/`;
  return (
    <Card className="border-amber-200">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-blue-950">
          <Sparkles className="h-5 w-5 text-amber-500" aria-hidden="true" />
          Go Viral with Faith
        </CardTitle>
        <CardDescription>
          Share {station.name} with friends and family and help spread hope, worship and the Word.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Share
          url={url}
          title={`${station.name} Live`}
          text={`Listen to ${station.name} live: worship, sermons and prayer from the ${station.networkName}.`}
          onShared={countShare}
        />
      </CardContent>
    </Card>
  );
}
