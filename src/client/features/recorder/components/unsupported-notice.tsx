import { RECORDER_TEXT } from '../../../../common/recorder';
import { Share } from '../../../components/share';
import { getStation } from '../../../lib/station';

/** Where the browser cannot record: SPEC.md section 8's notice plus a share button; the server saves moments instead. */
export function UnsupportedNotice() {
  const station = getStation();
  const url = typeof window === 'undefined' ? '' : window.location.origin;
  return (
    <div className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700">
      <p>{RECORDER_TEXT.browserUnsupported}</p>
      <p>
        You can still save a moment: our station keeps the last few minutes and will make the clip for you.
      </p>
      <Share url={url} title={`${station.name} Live`} text={`Listen to ${station.name} live with me`} />
    </div>
  );
}
