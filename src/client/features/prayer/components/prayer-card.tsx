import type { FormEvent } from 'react';
import { PRAYER_FORM_PATH, PRAYER_TEXT } from '../../../../common/prayer-text';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import { useSubmitPrayerRequest } from '../api';

/**
 * SPEC.md section 2 home row 4 and section 8 (Prayer): the prayer request card, reached by '#prayer'.
 * The form is a plain one that posts to the station until this code has taken it over (before that the
 * server answers with a page; docs/decisions/020); its fields are left to the browser, so what a visitor
 * typed before then is what is sent.
 */
export function PrayerCard() {
  const submit = useSubmitPrayerRequest();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    const request = String(fields.get('request') ?? '');
    if (!request.trim()) {
      notifyFailure('Error', undefined, PRAYER_TEXT.blank);
      return;
    }
    submit.mutate(
      { request, name: String(fields.get('name') ?? '') },
      {
        onSuccess: () => {
          notifySuccess(PRAYER_TEXT.submittedTitle, PRAYER_TEXT.submitted);
          form.reset();
        },
        // SPEC.md's fixed text, whatever the server said.
        onError: () => notifyFailure('Error', undefined, PRAYER_TEXT.failed),
      },
    );
  }

  return (
    <Card id="prayer" className="scroll-mt-24">
      <CardHeader>
        <CardTitle>Prayer Requests</CardTitle>
        <CardDescription>
          Share what is on your heart. Every request is kept confidential and prayed for by our pastoral team.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form method="post" action={PRAYER_FORM_PATH} onSubmit={onSubmit} noValidate className="space-y-4">
          <div className="space-y-2">
            <Label htmlFor="prayer-name">Your name (optional)</Label>
            <Input id="prayer-name" name="name" autoComplete="name" />
          </div>
          <div className="space-y-2">
            <Label htmlFor="prayer-request">Prayer request</Label>
            <Textarea
              id="prayer-request"
              name="request"
              rows={4}
              required
              placeholder="How can we pray for you?"
            />
          </div>
          <input type="hidden" name="isPrivate" value="true" />
          <p className="text-xs text-slate-600">
            Your request is private and only seen by our pastoral team.
          </p>
          <Button type="submit" disabled={submit.isPending} className="w-full">
            {submit.isPending ? 'Sending…' : 'Submit Prayer Request'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
