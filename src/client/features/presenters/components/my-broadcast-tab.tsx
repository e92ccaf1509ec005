import KeyRound from 'lucide-react/icons/key-round';
import { useState } from 'react';
import { PRESENTER_EARLY_MINUTES, type MyBroadcast, type PresenterSlot } from '../../../../common/presenters';
import { ShownOncePassword } from '../../../components/shown-once-password';
import { ConfirmDialog } from '../../../components/ui/alert-dialog';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { notifyFailure } from '../../../lib/notify';
import { getStation } from '../../../lib/station';
import { encoderAddress, useMyBroadcast, useRotateMySourcePassword } from '../api';

/** A moment in the station's time zone: "Sun 29 Nov, 10:00". */
function stationTime(iso: string, timeZone = getStation().timeZone) {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}
const clock = (iso: string) => stationTime(iso).split(', ').at(-1)!;

/** A presenter's only tab: how to set up their encoder, their own source password, their programmes ahead. */
export function MyBroadcastTab() {
  const area = useMyBroadcast();
  if (area.isPending) return <Skeleton className="h-48" />;
  if (area.isError)
    return (
      <p role="alert" className="text-sm font-medium text-red-700">
        Your broadcast details could not be loaded. Please try again.
      </p>
    );
  return (
    <div className="grid gap-6">
      <EncoderCard area={area.data} />
      <ProgrammesCard slots={area.data.upcoming} />
    </div>
  );
}

function EncoderCard({ area }: { area: MyBroadcast }) {
  const { encoder } = area;
  const rotate = useRotateMySourcePassword();
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState<string | null>(null);
  const makePassword = () =>
    rotate.mutate(undefined, {
      onSuccess: ({ sourcePassword }) => setPassword(sourcePassword),
      onError: (error) => notifyFailure('Failed to make a new source password', error),
    });
  const rows: [string, string][] = [
    ['Server type', 'Icecast 2'],
    ['Server', encoder.server],
    ['Port', String(encoder.port)],
    ...(encoder.tls ? ([['Secure connection', 'Yes (TLS/SSL)']] as [string, string][]) : []),
    ['Mount', encoder.mount],
    ['Username', encoder.username],
    [
      'Password',
      area.sourcePasswordSetAt
        ? `Your source password, made ${stationTime(area.sourcePasswordSetAt)}`
        : 'None yet: make one below',
    ],
  ];

  return (
    <Card>
      <CardHeader>
        <CardTitle>My broadcast</CardTitle>
        <CardDescription>
          Set your encoder (butt, Mixxx, OBS, ffmpeg) to these details. It is let in from{' '}
          {PRESENTER_EARLY_MINUTES} minutes before your programme until its end, and goes on air when your
          programme starts.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" aria-label="Encoder settings">
          {rows.map(([name, value]) => (
            <div key={name} className="contents">
              <dt className="font-medium text-slate-700">{name}</dt>
              <dd className="font-mono text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
        <Button
          variant="outline"
          onClick={() => (area.sourcePasswordSetAt ? setConfirming(true) : makePassword())}
          disabled={rotate.isPending}
        >
          <KeyRound aria-hidden="true" />
          {rotate.isPending ? 'Making...' : 'New Source Password'}
        </Button>
        {password && (
          <ShownOncePassword
            id="my-source-password"
            label="Your new source password"
            password={password}
            extra={[
              {
                id: 'my-encoder-address',
                label: 'Encoder address',
                value: encoderAddress(encoder, password),
              },
            ]}
          />
        )}
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title="Make a new source password?"
          description="Your encoder's current password will stop working at once; put the new one in your encoder."
          confirmLabel="Make New Password"
          onConfirm={makePassword}
        />
      </CardContent>
    </Card>
  );
}

function ProgrammesCard({ slots }: { slots: PresenterSlot[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>My programmes</CardTitle>
        <CardDescription>
          The next 7 days, in the station's time zone ({getStation().timeZone}).
        </CardDescription>
      </CardHeader>
      <CardContent>
        {slots.length === 0 ? (
          <p className="text-sm text-slate-600">
            No programme of yours is on the schedule in the next 7 days.
          </p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="My programmes">
            {slots.map((slot) => (
              <li key={slot.startsAt} className="py-2" data-testid="my-programme">
                <p className="font-medium text-slate-900">{slot.programmeTitle}</p>
                <p className="text-sm text-slate-600">
                  {stationTime(slot.startsAt)} to {clock(slot.endsAt)} · your encoder is let in from{' '}
                  {clock(slot.opensAt)}
                </p>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
