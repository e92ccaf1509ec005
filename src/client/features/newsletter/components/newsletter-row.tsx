import { useState, type FormEvent } from 'react';
import { FieldError } from '../../../components/form/field-error';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import {
  INVALID_EMAIL,
  NEWSLETTER_FORM_PATH,
  NEWSLETTER_TEXT,
  SUBSCRIBED_MESSAGE,
} from '../../../../common/newsletter-text';
import { isValidEmail, useSubscribe } from '../api';

/** SPEC.md section 2 home row 8: the 'Stay Connected' newsletter area and its side panel. */
export function NewsletterRow() {
  return (
    <section aria-labelledby="newsletter-title" className="grid gap-6 lg:grid-cols-3">
      <NewsletterCard />
      <Card className="bg-amber-50">
        <CardHeader>
          <CardTitle className="text-lg">What you will receive</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
            <li>Station news and upcoming programs</li>
            <li>Sermons, devotionals and Christian content</li>
            <li>Invitations to live events</li>
          </ul>
          <p className="mt-3 text-xs text-slate-600">No spam: your address is used for station news only.</p>
        </CardContent>
      </Card>
    </section>
  );
}

/**
 * A plain form that posts to the station until this code has taken it over (before that the server answers
 * with a page; docs/decisions/020); its fields are left to the browser, so what a visitor typed before then
 * is what is sent.
 */
function NewsletterCard() {
  const [error, setError] = useState<string>();
  /** After success: the station's answer (with double opt-in, where to look for the confirmation link). */
  const [done, setDone] = useState<string>();
  const subscribe = useSubscribe();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const email = String(fields.get('email') ?? '');
    if (!isValidEmail(email)) return setError(INVALID_EMAIL);
    setError(undefined);
    subscribe.mutate(
      { email, name: String(fields.get('name') ?? '') },
      {
        onSuccess: (answer) => {
          notifySuccess(NEWSLETTER_TEXT.subscribedTitle, NEWSLETTER_TEXT.subscribed);
          setDone(answer.message);
        },
        onError: (err) => notifyFailure(NEWSLETTER_TEXT.failedTitle, err, NEWSLETTER_TEXT.failed),
      },
    );
  }

  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle id="newsletter-title">Stay Connected</CardTitle>
        <CardDescription>Get station updates, new programs and encouragement in your inbox.</CardDescription>
      </CardHeader>
      <CardContent>
        {done !== undefined ? (
          <div aria-live="polite" className="space-y-2">
            <p className="text-lg font-semibold text-emerald-700">{NEWSLETTER_TEXT.thanks}</p>
            {done !== SUBSCRIBED_MESSAGE && done && <p className="text-sm text-slate-700">{done}</p>}
          </div>
        ) : (
          <form
            method="post"
            action={NEWSLETTER_FORM_PATH}
            onSubmit={onSubmit}
            noValidate
            className="grid gap-4 sm:grid-cols-2"
          >
            <div className="space-y-2">
              <Label htmlFor="newsletter-email">Email</Label>
              <Input
                id="newsletter-email"
                name="email"
                type="email"
                autoComplete="email"
                aria-invalid={Boolean(error)}
                aria-describedby="newsletter-email-error"
              />
              <FieldError id="newsletter-email-error" message={error} />
            </div>
            <div className="space-y-2">
              <Label htmlFor="newsletter-name">Name (optional)</Label>
              <Input id="newsletter-name" name="name" autoComplete="name" />
            </div>
            <Button type="submit" disabled={subscribe.isPending} className="sm:col-span-2">
              {subscribe.isPending ? 'Subscribing…' : 'Subscribe'}
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
