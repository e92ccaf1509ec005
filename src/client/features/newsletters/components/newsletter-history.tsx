import { useState } from 'react';
import type { NewsletterSummary } from '../../../../common/newsletters';
import { CardHeading } from '../../../components/card-heading';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { useNewsletter } from '../api';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Every newsletter sent or sending: when, by whom, to how many, and how far it has got. */
export function NewsletterHistory({ newsletters }: { newsletters: NewsletterSummary[] }) {
  return (
    <Card>
      <CardHeader>
        <CardHeading
          title="Sent newsletters"
          description="Sending goes on at the station if this page is closed."
        />
      </CardHeader>
      <CardContent>
        {newsletters.length === 0 ? (
          <p className="text-sm text-slate-600">No newsletter sent yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Sent newsletters">
            {newsletters.map((newsletter) => (
              <NewsletterRow key={newsletter.id} newsletter={newsletter} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function NewsletterRow({ newsletter: n }: { newsletter: NewsletterSummary }) {
  const [open, setOpen] = useState(false);
  const done = n.recipients - n.left;
  const undelivered = n.failed + n.unknown;
  return (
    <li className="space-y-2 py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium text-slate-900">{n.subject}</p>
        <Badge variant={n.status === 'sending' ? 'secondary' : undelivered > 0 ? 'gold' : 'success'}>
          {n.status === 'sending' ? 'Sending' : 'Sent'}
        </Badge>
      </div>
      <p className="text-xs text-slate-600">
        {when(n.createdAt)} by {n.createdBy}, to {n.recipients}{' '}
        {n.recipients === 1 ? 'subscriber' : 'subscribers'}
        {n.finishedAt && `, finished ${when(n.finishedAt)}`}
      </p>
      {n.status === 'sending' && (
        <progress
          className="h-2 w-full"
          max={n.recipients}
          value={done}
          aria-label={`Progress of ${n.subject}`}
        />
      )}
      <p className="text-sm text-slate-700" data-testid="newsletter-counts">
        Sent {n.sent} · Failed {n.failed} · Left {n.left}
        {n.skipped > 0 && ` · Unsubscribed before their turn ${n.skipped}`}
        {n.unknown > 0 && ` · Interrupted, not sent again ${n.unknown}`}
      </p>
      {undelivered > 0 && (
        <Button variant="outline" size="sm" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide failures' : 'Show failures'}
        </Button>
      )}
      {open && <Failures id={n.id} />}
    </li>
  );
}

function Failures({ id }: { id: string }) {
  const detail = useNewsletter(id);
  if (detail.isPending) return <p className="text-sm text-slate-600">Loading…</p>;
  if (detail.isError) return <p className="text-sm text-red-700">The failures could not be loaded.</p>;
  return (
    <ul className="space-y-1 rounded-md border border-slate-200 p-2 text-sm" aria-label="Failures">
      {detail.data.failures.map((f) => (
        <li key={f.email}>
          <span className="font-medium">{f.email}</span>{' '}
          <span className="text-slate-600">
            ({f.attempts} {f.attempts === 1 ? 'attempt' : 'attempts'}): {f.error ?? 'no answer'}
          </span>
        </li>
      ))}
    </ul>
  );
}
