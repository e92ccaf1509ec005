import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Skeleton } from '../../../components/ui/skeleton';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import { useSaveStreamSource, useStreamSource } from '../api';

type Kind = 'built-in' | 'icecast' | 'url';

const KINDS: { kind: Kind; label: string; hint: string }[] = [
  { kind: 'built-in', label: 'This station', hint: 'The AutoDJ and live input of this server.' },
  {
    kind: 'icecast',
    label: 'An Icecast mount',
    hint: 'Relayed on this station’s own stream, with the titles of the server’s status page.',
  },
  {
    kind: 'url',
    label: 'Another stream address',
    hint: 'Relayed on this station’s own stream: AzuraCast, Shoutcast or any MP3/AAC stream.',
  },
];

const split = (value: string | null): { kind: Kind; address: string } => {
  const match = value ? /^(icecast|url):(.*)$/.exec(value) : null;
  return match ? { kind: match[1] as Kind, address: match[2]! } : { kind: 'built-in', address: '' };
};

/** Which stream listeners hear: changed while the station runs, once the address answers with audio. */
export function StreamSourcePanel() {
  const current = useStreamSource();
  if (current.isPending) return <Skeleton className="h-32" />;
  if (current.isError) return <p className="text-sm text-red-700">The stream source could not be loaded.</p>;
  // Keyed by what is saved: the form starts again from it after every save.
  const { streamSource: saved, allowPrivateNetwork } = current.data;
  return (
    <StreamSourceForm
      key={`${saved ?? ''} ${allowPrivateNetwork}`}
      saved={saved}
      savedPrivate={allowPrivateNetwork}
    />
  );
}

function StreamSourceForm({ saved, savedPrivate }: { saved: string | null; savedPrivate: boolean }) {
  const save = useSaveStreamSource();
  const [kind, setKind] = useState<Kind>(split(saved).kind);
  const [address, setAddress] = useState(split(saved).address);
  const [allowPrivateNetwork, setAllowPrivateNetwork] = useState(savedPrivate);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const streamSource = kind === 'built-in' ? null : `${kind}:${address.trim()}`;
    save.mutate(
      { streamSource, allowPrivateNetwork },
      {
        onSuccess: ({ streamSource }) =>
          notifySuccess(
            'Stream source saved',
            streamSource ? `On air from ${split(streamSource).address}` : 'On air from this station',
          ),
        onError: (error) => notifyFailure('Stream source not saved', error),
      },
    );
  };

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Stream source">
      <fieldset className="space-y-2">
        <legend className="sr-only">Where the stream comes from</legend>
        {KINDS.map((option) => (
          <label key={option.kind} className="flex items-start gap-3 text-sm">
            <input
              type="radio"
              name="stream-kind"
              value={option.kind}
              checked={kind === option.kind}
              onChange={() => setKind(option.kind)}
              className="mt-1"
            />
            <span>
              <span className="font-medium text-slate-900">{option.label}</span>
              <span className="block text-slate-600">{option.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {kind !== 'built-in' && (
        <div className="space-y-2">
          <Label htmlFor="stream-address">Stream address</Label>
          <Input
            id="stream-address"
            type="url"
            required
            placeholder="https://radio.example.org/live"
            value={address}
            onChange={(e) => setAddress(e.target.value)}
          />
        </div>
      )}
      <label className="flex items-start gap-3 text-sm">
        <input
          type="checkbox"
          checked={allowPrivateNetwork}
          onChange={(e) => setAllowPrivateNetwork(e.target.checked)}
          className="mt-1"
        />
        <span>
          <span className="font-medium text-slate-900">Allow a private network source</span>
          <span className="block text-slate-600">
            For an Icecast server on the station’s own network (10.x, 192.168.x, this machine). This station’s
            own address is never allowed.
          </span>
        </span>
      </label>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Checking...' : 'Save Stream Source'}
      </Button>
    </form>
  );
}
