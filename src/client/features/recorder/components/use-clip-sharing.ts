import { useState } from 'react';
import { CLIP_RANGE_SECONDS } from '../../../../common/clip-limits';
import type { CreatedClip } from '../../../../common/clips';
import { RECORDER_TEXT } from '../../../../common/recorder';
import { SHARE_TEXT } from '../../../../common/share-text';
import { toast } from '../../../components/ui/use-toast';
import { ApiError } from '../../../lib/api-request';
import { countClipShare, createServerClip } from '../api';
import type { Recording } from '../stream-recorder';
import type { ListedClip } from './recordings-dialog';

export const CLIP_SHARE_TEXT = {
  failedTitle: 'Could not share this recording',
  unplaced: 'The player did not know which moment of the broadcast this recording holds.',
  tooShort: `A shared clip is at least ${CLIP_RANGE_SECONDS.min} s long.`,
  tryAgain: 'Please try again in a moment.',
} as const;

/** Why a recording cannot be shared as the station's clip, told to the listener as it is. */
class ShareRefusal extends Error {}

/** What to tell the listener when no clip could be shared: our reason or the server's, never a guess. */
function refusalReason(error: unknown): string | undefined {
  if (error instanceof ShareRefusal) return error.message;
  return error instanceof ApiError && error.status < 500 ? error.serverMessage : undefined;
}

/**
 * Sharing from the recordings list shares that moment: a recording made here is shared as the station's
 * clip of the same stream-clock seconds (its own page), asked for once; a clip the station saved is
 * shared as it is. Where the station no longer has the moment, the listener is told so.
 */
export function useClipSharing(recordings: Recording[], stationName: string) {
  // The station's clip of each shared recording, made once and shared again from then on.
  const [sharedAs, setSharedAs] = useState<Record<string, CreatedClip>>({});
  const [sharingId, setSharingId] = useState<string | null>(null);

  const stationClipOf = async (recording: Recording): Promise<CreatedClip> => {
    const made = sharedAs[recording.id];
    if (made) return made;
    const { range } = recording;
    if (!range) throw new ShareRefusal(CLIP_SHARE_TEXT.unplaced);
    if (range.to - range.from < CLIP_RANGE_SECONDS.min) throw new ShareRefusal(CLIP_SHARE_TEXT.tooShort);
    const clip = await createServerClip({
      range,
      title: recording.title,
      description: recording.description,
    });
    setSharedAs((all) => ({ ...all, [recording.id]: clip }));
    return clip;
  };

  /** Shares the clip's page natively where the browser can, else copies the message with its address. */
  const share = async (clip: ListedClip) => {
    const recording = clip.shareUrl ? undefined : recordings.find((r) => r.id === clip.id);
    let target: { id: string; shareUrl: string };
    setSharingId(clip.id);
    try {
      target = recording ? await stationClipOf(recording) : { id: clip.id, shareUrl: clip.shareUrl ?? '' };
    } catch (error) {
      const reason = refusalReason(error);
      if (!reason) console.warn('Making the clip to share failed', error);
      toast({
        title: CLIP_SHARE_TEXT.failedTitle,
        description: reason ?? CLIP_SHARE_TEXT.tryAgain,
        variant: 'destructive',
      });
      return;
    } finally {
      setSharingId(null);
    }
    const text = `🎙️ "${clip.title}" — recorded live on ${stationName}. Listen with me:`;
    const counted = () => void countClipShare(target.id).catch(() => {});
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: clip.title, text, url: target.shareUrl });
        toast({ title: SHARE_TEXT.shared });
        counted();
        return;
      } catch (error) {
        // SPEC.md section 8: native share errors (the listener cancelling) are silently ignored; only a
        // browser refusing because the clip took a moment to make (the tap has expired) falls back to copying.
        if (!(error instanceof DOMException && error.name === 'NotAllowedError')) return;
      }
    }
    try {
      await navigator.clipboard.writeText(`${text} ${target.shareUrl}`);
      toast({ title: RECORDER_TEXT.copied, description: RECORDER_TEXT.copiedLine });
      counted();
    } catch {
      toast({ title: SHARE_TEXT.copyFailed, description: SHARE_TEXT.copyManually });
    }
  };

  return { share, sharingId };
}
