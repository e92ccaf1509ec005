import { useState } from 'react';
import { RECORDER_TEXT } from '../../../../common/recorder';
import { Share } from '../../../components/share';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { getStation } from '../../../lib/station';
import { usePageOrigin } from '../../../lib/use-browser-value';
import { countShare } from '../../sharing';
import { testRecording } from '../stream-recorder';

/**
 * Where the browser cannot record: SPEC.md section 8's notice plus a share button; the server saves
 * moments instead. While the radio plays, the debug test tells whether this device could record at all.
 */
export function UnsupportedNotice({ audio, playing }: { audio: HTMLAudioElement; playing: boolean }) {
  const station = getStation();
  const url = usePageOrigin();
  const [testing, setTesting] = useState(false);
  const runTest = async () => {
    setTesting(true);
    const result = await testRecording(audio);
    setTesting(false);
    toast(
      result.ok
        ? {
            title: 'Recording works on this device',
            description: `${result.mimeType}, ${result.bytes} bytes in 3 s`,
          }
        : { title: result.message, variant: 'destructive' },
    );
  };
  return (
    <div className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700">
      <p>{RECORDER_TEXT.browserUnsupported}</p>
      <p>
        You can still save a moment: our station keeps the last few minutes and will make the clip for you.
      </p>
      <div className="space-y-2">
        <Share
          url={url}
          title={`${station.name} Live`}
          text={`Listen to ${station.name} live with me`}
          className="grid-cols-2 sm:grid-cols-4"
          onShared={countShare}
        />
        {playing && (
          <Button variant="link" size="sm" disabled={testing} onClick={() => void runTest()}>
            Test recording on this device
          </Button>
        )}
      </div>
    </div>
  );
}
