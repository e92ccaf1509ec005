import Copy from 'lucide-react/icons/copy';
import KeyRound from 'lucide-react/icons/key-round';
import { useState } from 'react';
import { STREAM_PATH } from '../../../../common/radio';
import { ConfirmDialog } from '../../../components/ui/alert-dialog';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/use-toast';
import { useRotateSourcePassword } from '../api';
import { notifyFailure } from '../../../lib/notify';

/** The address an Icecast-compatible encoder connects to with this password. */
export const encoderAddress = (password: string, host: string) =>
  `icecast://source:${encodeURIComponent(password)}@${host}${STREAM_PATH}`;

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: `${what} copied` });
  } catch {
    toast({ variant: 'destructive', title: 'Copy failed', description: 'Please copy it by hand.' });
  }
}

/** Rotating the live-input password: the new one is shown once, here, with the encoder address. */
export function SourcePasswordPanel() {
  const rotate = useRotateSourcePassword();
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState<string | null>(null);
  const address = password ? encoderAddress(password, window.location.host) : '';

  const confirmRotate = () =>
    rotate.mutate(undefined, {
      onSuccess: ({ sourcePassword }) => setPassword(sourcePassword),
      onError: (error) => notifyFailure('Failed to rotate the source password', error),
    });

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        Encoders (ffmpeg, butt, Mixxx, Liquidsoap) send the live programme with this password. A new password
        replaces the old one at once; encoders using the old one cannot connect again.
      </p>
      <Button variant="outline" onClick={() => setConfirming(true)} disabled={rotate.isPending}>
        <KeyRound aria-hidden="true" />
        {rotate.isPending ? 'Rotating...' : 'Rotate Source Password'}
      </Button>
      {password && (
        <div
          className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-4"
          data-testid="new-source-password"
        >
          <p className="text-sm font-medium text-amber-900">
            Copy it now: the password is shown only this once.
          </p>
          <CopyField
            id="source-password"
            label="New source password"
            value={password}
            copyLabel="Copy source password"
            onCopy={() => void copy(password, 'Password')}
          />
          <CopyField
            id="encoder-address"
            label="Encoder address"
            value={address}
            small
            copyLabel="Copy encoder address"
            onCopy={() => void copy(address, 'Address')}
          />
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Rotate the source password?"
        description="Encoders using the current password will not be able to connect again until they use the new one."
        confirmLabel="Rotate"
        onConfirm={confirmRotate}
      />
    </div>
  );
}

/** A read-only value with a button that copies it. */
function CopyField(props: {
  id: string;
  label: string;
  value: string;
  copyLabel: string;
  small?: boolean;
  onCopy: () => void;
}) {
  return (
    <div className="space-y-1">
      <Label htmlFor={props.id}>{props.label}</Label>
      <div className="flex gap-2">
        <Input
          id={props.id}
          readOnly
          value={props.value}
          className={props.small ? 'font-mono text-xs' : 'font-mono'}
        />
        <Button variant="outline" size="icon" aria-label={props.copyLabel} onClick={props.onCopy}>
          <Copy aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}
