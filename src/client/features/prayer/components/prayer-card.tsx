import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import { useSubmitPrayerRequest } from '../api';

/** SPEC.md section 2 home row 4 and section 8 (Prayer): the prayer request card, reached by '#prayer'. */
export function PrayerCard() {
  const [request, setRequest] = useState('');
  const [name, setName] = useState('');
  const submit = useSubmitPrayerRequest();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!request.trim()) {
      notifyFailure('Error', undefined, 'Please enter your prayer request.');
      return;
    }
    submit.mutate(
      { request, name },
      {
        onSuccess: () => {
          notifySuccess(
            'Prayer Request Submitted',
            'Thank you for your prayer request. Our team will pray for you.',
          );
          setRequest('');
          setName('');
        },
        // SPEC.md's fixed text, whatever the server said.
        onError: () =>
          notifyFailure('Error', undefined, 'Failed to submit prayer request. Please try again.'),
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
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <div className="space-y-2">
            <Label htmlFor="prayer-name">Your name (optional)</Label>
            <Input
              id="prayer-name"
              autoComplete="name"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div className="space-y-2">
            <Label htmlFor="prayer-request">Prayer request</Label>
            <Textarea
              id="prayer-request"
              rows={4}
              required
              value={request}
              onChange={(e) => setRequest(e.target.value)}
              placeholder="How can we pray for you?"
            />
          </div>
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
