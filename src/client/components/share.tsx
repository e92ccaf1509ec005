import Copy from 'lucide-react/icons/copy';
import Share2 from 'lucide-react/icons/share-2';
import { SHARE_TEXT } from '../../common/share-text';
import { toast } from './ui/use-toast';
import { Button, buttonVariants } from './ui/button';
import { FacebookIcon, WhatsAppIcon, XTwitterIcon } from './brand-icons';
import { useBrowserValue } from '../lib/use-browser-value';
import { cn } from '../lib/utils';

const hasNativeShare = () => typeof navigator.share === 'function';

export interface ShareProps {
  url: string;
  title: string;
  text: string;
  /** Called after a share was made (native share, copy or a network link), e.g. to count it. */
  onShared?: (method: 'native' | 'copy' | 'facebook' | 'twitter' | 'whatsapp') => void;
  className?: string;
}

/** The share links of SPEC.md section 2, each opened in a new tab. */
export function shareLinks(url: string, text: string) {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(text);
  return {
    facebook: `https://www.facebook.com/sharer/sharer.php?u=${u}`,
    twitter: `https://twitter.com/intent/tweet?url=${u}&text=${t}`,
    whatsapp: `https://wa.me/?text=${encodeURIComponent(`${text} ${url}`)}`,
  };
}

/** SPEC.md section 2: native share, copy link, and Facebook, Twitter and WhatsApp links. */
export function Share({ url, title, text, onShared, className }: ShareProps) {
  const canShareNatively = useBrowserValue(hasNativeShare, false);
  const links = shareLinks(url, text);

  const shareNatively = async () => {
    try {
      await navigator.share({ title, text, url });
      toast({ title: SHARE_TEXT.shared });
      onShared?.('native');
    } catch {
      // SPEC.md section 8: native share errors (including the listener cancelling) are silently ignored.
    }
  };

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: SHARE_TEXT.linkCopied });
      onShared?.('copy');
    } catch {
      toast({ title: SHARE_TEXT.copyFailed, description: SHARE_TEXT.copyManually, variant: 'destructive' });
    }
  };

  const external = { target: '_blank', rel: 'noopener noreferrer' } as const;
  const linkClass = cn(buttonVariants({ variant: 'outline' }), 'justify-start');

  return (
    <div className={cn('grid gap-2 sm:grid-cols-2', className)}>
      {canShareNatively && (
        <Button variant="gold" onClick={() => void shareNatively()} className="sm:col-span-2">
          <Share2 aria-hidden="true" />
          Share
        </Button>
      )}
      <Button variant="outline" onClick={() => void copyLink()} className="justify-start">
        <Copy aria-hidden="true" />
        Copy Link
      </Button>
      <a href={links.facebook} {...external} className={linkClass} onClick={() => onShared?.('facebook')}>
        <FacebookIcon className="text-[#1877f2]" />
        Facebook
      </a>
      <a href={links.twitter} {...external} className={linkClass} onClick={() => onShared?.('twitter')}>
        <XTwitterIcon />
        Twitter
      </a>
      <a href={links.whatsapp} {...external} className={linkClass} onClick={() => onShared?.('whatsapp')}>
        <WhatsAppIcon className="text-[#128c4a]" />
        WhatsApp
      </a>
    </div>
  );
}
