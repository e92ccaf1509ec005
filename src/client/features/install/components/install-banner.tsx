import Download from 'lucide-react/icons/download';
import X from 'lucide-react/icons/x';
import { useEffect, useState } from 'react';
import {
  INSTALL_BANNER_DELAY_MS,
  INSTALL_DISMISSAL_PERIOD_MS,
  INSTALL_DISMISSED_KEY,
} from '../../../../common/ui';
import { Button } from '../../../components/ui/button';
import { promptInstall, useInstallOffer } from '../../../lib/install-prompt';
import { getStation } from '../../../lib/station';

/** After an accepted install the banner never shows again in this page's session. */
let acceptedThisSession = false;

function storeDismissal() {
  try {
    localStorage.setItem(INSTALL_DISMISSED_KEY, String(Date.now()));
  } catch {
    // Storage may be unavailable (private mode); the banner simply closes.
  }
}

/**
 * SPEC.md section 4: the stored dismissal is read on load and compared with the 7-day period, but it has
 * no visible effect on whether the banner shows. It is kept as a data attribute only.
 */
function dismissedWithinPeriod(now = Date.now()): boolean {
  try {
    const stored = Number(localStorage.getItem(INSTALL_DISMISSED_KEY));
    return stored > 0 && now - stored < INSTALL_DISMISSAL_PERIOD_MS;
  } catch {
    return false;
  }
}

/** SPEC.md section 2 item 11: shown 30 s after the browser offers installation. */
export function InstallBanner() {
  const offer = useInstallOffer();
  const [dueOffer, setDueOffer] = useState<object | null>(null);
  const [closed, setClosed] = useState(false);
  const [recentlyDismissed] = useState(() => dismissedWithinPeriod());

  useEffect(() => {
    if (!offer) return;
    const wait = Math.max(0, offer.offeredAt + INSTALL_BANNER_DELAY_MS - Date.now());
    const timer = setTimeout(() => setDueOffer(offer), wait);
    return () => clearTimeout(timer);
  }, [offer]);

  const visible = offer !== null && dueOffer === offer && !closed && !acceptedThisSession;
  if (!visible) return null;

  const dismiss = () => {
    storeDismissal();
    setClosed(true);
  };
  const install = async () => {
    setClosed(true);
    if ((await promptInstall()) === 'accepted') acceptedThisSession = true;
  };

  return (
    <div
      role="dialog"
      aria-labelledby="install-banner-title"
      data-recently-dismissed={recentlyDismissed}
      className="fixed inset-x-3 bottom-3 z-50 mx-auto max-w-md rounded-xl border border-amber-300 bg-white p-4 shadow-xl"
    >
      <button
        type="button"
        aria-label="Close"
        onClick={dismiss}
        className="absolute right-2 top-2 rounded-md p-1 text-slate-600 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-500"
      >
        <X className="h-4 w-4" aria-hidden="true" />
      </button>
      <div className="flex items-start gap-3 pr-6">
        <img src="/logo.svg" alt="" width={40} height={40} className="h-10 w-10 shrink-0" />
        <div>
          <p id="install-banner-title" className="font-semibold text-blue-950">
            Install {getStation().name}
          </p>
          <p className="text-sm text-slate-700">
            Add the station to your home screen and listen with one tap.
          </p>
        </div>
      </div>
      <div className="mt-3 flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={dismiss}>
          Later
        </Button>
        <Button variant="gold" size="sm" onClick={() => void install()}>
          <Download aria-hidden="true" />
          Install
        </Button>
      </div>
    </div>
  );
}

/** Tests start with a fresh session. */
export function resetInstallBannerSession() {
  acceptedThisSession = false;
}
