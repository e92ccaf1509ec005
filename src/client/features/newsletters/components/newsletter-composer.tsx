import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import {
  DEFAULT_MESSAGES_PER_SECOND,
  NEWSLETTER_NEEDS_SMTP,
  newsletterSendSchema,
  type NewsletterPreview,
} from '../../../../common/newsletters';
import { CardHeading } from '../../../components/card-heading';
import { FieldError } from '../../../components/form/field-error';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { serverMessage } from '../../../lib/api-request';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import { usePreviewNewsletter, useSendNewsletter, useSendTestNewsletter, useUploadPicture } from '../api';

type Input = z.input<typeof newsletterSendSchema>;
type Output = z.output<typeof newsletterSendSchema>;

/** Write, preview, test and send a newsletter. Sending goes on at the station once it has started. */
export function NewsletterComposer({ canSend }: { canSend: boolean }) {
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(newsletterSendSchema),
    defaultValues: { subject: '', body: '', imageUrl: null, perSecond: DEFAULT_MESSAGES_PER_SECOND },
  });
  const { errors } = form.formState;
  const preview = usePreviewNewsletter();
  const sendTest = useSendTestNewsletter();
  const send = useSendNewsletter();
  const upload = useUploadPicture();
  const [testTo, setTestTo] = useState('');
  const [confirming, setConfirming] = useState(false);
  const imageUrl = useWatch({ control: form.control, name: 'imageUrl' });

  const showPreview = form.handleSubmit((draft) =>
    preview.mutate(draft, { onError: (error) => notifyFailure('Preview failed', error) }),
  );
  const sendTestTo = form.handleSubmit((draft) =>
    sendTest.mutate(
      { ...draft, to: testTo },
      {
        onSuccess: ({ message }) => notifySuccess('Test sent', message),
        onError: (error) => notifyFailure('Test not sent', error),
      },
    ),
  );
  const sendToAll = form.handleSubmit((draft) =>
    send.mutate(draft, {
      onSuccess: () => {
        notifySuccess('Newsletter on its way', 'It goes on sending even if you close this page.');
        setConfirming(false);
        form.reset();
        preview.reset();
      },
      onError: (error) => {
        setConfirming(false);
        notifyFailure('Newsletter not sent', error);
      },
    }),
  );
  const choosePicture = (file: File | undefined) => {
    if (!file) return;
    upload.mutate(file, {
      onSuccess: ({ imageUrl: url }) => form.setValue('imageUrl', url),
      onError: (error) => notifyFailure('Picture not uploaded', error),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardHeading
          title="Write a newsletter"
          description="Sent to every confirmed subscriber, with a one-click unsubscribe link."
        />
      </CardHeader>
      <CardContent className="space-y-4">
        {!canSend && (
          <p
            role="status"
            className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
          >
            {NEWSLETTER_NEEDS_SMTP} You can still write and preview one.
          </p>
        )}
        <form noValidate onSubmit={showPreview} className="space-y-4" aria-label="Newsletter">
          <div className="space-y-1">
            <Label htmlFor="newsletter-subject">Subject</Label>
            <Input
              id="newsletter-subject"
              aria-invalid={Boolean(errors.subject)}
              aria-describedby="newsletter-subject-error"
              {...form.register('subject')}
            />
            <FieldError id="newsletter-subject-error" message={errors.subject?.message} />
          </div>
          <div className="space-y-1">
            <Label htmlFor="newsletter-body">Text</Label>
            <Textarea
              id="newsletter-body"
              rows={8}
              aria-invalid={Boolean(errors.body)}
              aria-describedby="newsletter-body-hint newsletter-body-error"
              {...form.register('body')}
            />
            <p id="newsletter-body-hint" className="text-xs text-slate-600">
              A blank line starts a new paragraph; web addresses (https://…) become links.
            </p>
            <FieldError id="newsletter-body-error" message={errors.body?.message} />
          </div>
          <div className="space-y-1">
            <Label htmlFor="newsletter-picture">Picture (optional)</Label>
            <Input
              id="newsletter-picture"
              type="file"
              accept="image/*"
              disabled={upload.isPending}
              onChange={(event) => choosePicture(event.target.files?.[0])}
            />
            {imageUrl && (
              <div className="flex items-center gap-3">
                <img src={imageUrl} alt="The newsletter's picture" className="h-16 rounded-md object-cover" />
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  onClick={() => form.setValue('imageUrl', null)}
                >
                  Remove picture
                </Button>
              </div>
            )}
          </div>
          <div className="space-y-1">
            <Label htmlFor="newsletter-pace">Messages a second</Label>
            <Input
              id="newsletter-pace"
              type="number"
              step="any"
              min={0.01}
              className="w-32"
              aria-invalid={Boolean(errors.perSecond)}
              aria-describedby="newsletter-pace-hint newsletter-pace-error"
              {...form.register('perSecond', { valueAsNumber: true })}
            />
            <p id="newsletter-pace-hint" className="text-xs text-slate-600">
              One a second keeps a small SMTP account from being blocked.
            </p>
            <FieldError id="newsletter-pace-error" message={errors.perSecond?.message} />
          </div>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="outline" disabled={preview.isPending}>
              Preview
            </Button>
          </div>
        </form>
        {preview.data && <PreviewFrame preview={preview.data} />}
        <div className="flex flex-wrap items-end gap-2 border-t border-slate-200 pt-4">
          <div className="space-y-1">
            <Label htmlFor="newsletter-test-to">Send a test to</Label>
            <Input
              id="newsletter-test-to"
              type="email"
              className="w-64"
              value={testTo}
              onChange={(event) => setTestTo(event.target.value)}
            />
          </div>
          <Button
            variant="outline"
            disabled={!canSend || sendTest.isPending || testTo.trim() === ''}
            onClick={() => void sendTestTo()}
          >
            Send test
          </Button>
        </div>
        <div className="flex flex-wrap gap-2 border-t border-slate-200 pt-4">
          {confirming ? (
            <>
              <Button disabled={send.isPending} onClick={() => void sendToAll()}>
                Yes, send it to every confirmed subscriber
              </Button>
              <Button variant="outline" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
            </>
          ) : (
            <Button disabled={!canSend} onClick={() => setConfirming(true)}>
              Send to subscribers
            </Button>
          )}
        </div>
        {send.isError && serverMessage(send.error) && (
          <p role="alert" className="text-sm text-red-700">
            {serverMessage(send.error)}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

/** The e-mail as a subscriber will see it, in a frame that runs nothing. */
function PreviewFrame({ preview }: { preview: NewsletterPreview }) {
  return (
    <section aria-label="Preview" className="space-y-2 rounded-md border border-slate-200 p-3">
      <p className="text-sm">
        <span className="text-slate-600">Subject: </span>
        <span className="font-medium text-slate-900">{preview.subject}</span>
      </p>
      <iframe
        title="Newsletter preview"
        sandbox=""
        srcDoc={`<!doctype html><meta charset="utf-8"><body style="font-family:sans-serif;color:#0f172a;margin:12px">${preview.html}</body>`}
        className="h-[32rem] w-full rounded border border-slate-100 bg-white"
      />
    </section>
  );
}
