import { useState, type ReactNode } from 'react';
import {
  NOTIFICATION_EVENT_LABELS,
  NOTIFICATION_EVENTS,
  NOTIFICATION_TARGET_LABELS,
  notificationSettingsInputSchema,
  type DeliveryResult,
  type MastodonVisibility,
  type NotificationEventType,
  type NotificationSettings,
  type NotificationSettingsInput,
  type NotificationTarget,
} from '../../../../common/notifications';
import { FieldError } from '../../../components/form/field-error';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverMessage } from '../../../lib/api-request';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import { useNotifications, useSaveNotifications, useSendTestNotification } from '../api';

/** Where staff are told of live programmes, dead air, a missing presenter, a failing source, a publication. */
export function NotificationsPanel() {
  const current = useNotifications();
  if (current.isPending) return <Skeleton className="h-64" />;
  if (current.isError)
    return <p className="text-sm text-red-700">The notification settings could not be loaded.</p>;
  return <NotificationsForm saved={current.data} />;
}

/** The form starts from what is saved; secrets start blank (blank keeps the stored one). */
const draftFrom = (saved: NotificationSettings): NotificationSettingsInput => ({
  email: { enabled: saved.email.enabled, events: saved.email.events, recipients: saved.email.recipients },
  webhook: {
    enabled: saved.webhook.enabled,
    events: saved.webhook.events,
    url: saved.webhook.url,
    secret: '',
  },
  discord: { enabled: saved.discord.enabled, events: saved.discord.events, webhookUrl: '' },
  telegram: {
    enabled: saved.telegram.enabled,
    events: saved.telegram.events,
    botToken: '',
    chatId: saved.telegram.chatId,
  },
  mastodon: {
    enabled: saved.mastodon.enabled,
    events: saved.mastodon.events,
    instanceUrl: saved.mastodon.instanceUrl,
    accessToken: '',
    visibility: saved.mastodon.visibility,
  },
});

function NotificationsForm({ saved }: { saved: NotificationSettings }) {
  const save = useSaveNotifications();
  const [draft, setDraft] = useState(() => draftFrom(saved));
  const [recipients, setRecipients] = useState(saved.email.recipients.join(', '));
  const [error, setError] = useState<string>();

  const change = <K extends NotificationTarget>(target: K, next: Partial<NotificationSettingsInput[K]>) =>
    setDraft((before) => ({ ...before, [target]: { ...before[target], ...next } }));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const list = recipients
      .split(/[,;\s]+/)
      .map((address) => address.trim())
      .filter(Boolean);
    const parsed = notificationSettingsInputSchema.safeParse({
      ...draft,
      email: { ...draft.email, recipients: list },
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    save.mutate(parsed.data, {
      onSuccess: (next) => {
        // Secrets just saved are kept by the station; the fields go blank again.
        setDraft(draftFrom(next));
        setRecipients(next.email.recipients.join(', '));
        notifySuccess('Notifications saved');
      },
      onError: (failure) => {
        setError(serverMessage(failure));
        notifyFailure('Notifications not saved', failure);
      },
    });
  };

  const common = (target: NotificationTarget) => ({
    target,
    enabled: draft[target].enabled,
    events: draft[target].events,
    onEnabled: (enabled: boolean) => change(target, { enabled }),
    onEvents: (events: NotificationEventType[]) => change(target, { events }),
    last: saved[target].last,
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-6" aria-label="Notifications">
      <p className="text-sm text-slate-600">
        Each target can be switched on or off and chooses what it hears about. Failed deliveries are tried
        again for about half an hour. “Send test” uses the saved settings: save first.
      </p>
      <TargetFieldset {...common('email')} unavailable={!saved.email.available}>
        {saved.email.available ? (
          <TextField
            id="notify-email-recipients"
            label="Send to (e-mail addresses, separated by commas)"
            value={recipients}
            onChange={setRecipients}
            placeholder="pastor@church.org, engineer@church.org"
          />
        ) : (
          <p className="text-sm text-slate-600">
            E-mail needs the station’s mail server (SMTP_URL) to be set up by whoever runs the server.
          </p>
        )}
      </TargetFieldset>
      <TargetFieldset {...common('webhook')}>
        <TextField
          id="notify-webhook-url"
          label="Webhook address"
          type="url"
          value={draft.webhook.url}
          onChange={(url) => change('webhook', { url })}
          placeholder="https://example.org/station-events"
        />
        <SecretField
          id="notify-webhook-secret"
          label="Shared secret (signs each request)"
          isSet={saved.webhook.secretSet}
          value={draft.webhook.secret ?? ''}
          onChange={(secret) => change('webhook', { secret })}
        />
      </TargetFieldset>
      <TargetFieldset {...common('discord')}>
        <SecretField
          id="notify-discord-url"
          label="Discord webhook address"
          isSet={saved.discord.webhookUrlSet}
          value={draft.discord.webhookUrl ?? ''}
          onChange={(webhookUrl) => change('discord', { webhookUrl })}
          placeholder="https://discord.com/api/webhooks/…"
        />
      </TargetFieldset>
      <TargetFieldset {...common('telegram')}>
        <SecretField
          id="notify-telegram-token"
          label="Bot token (from BotFather)"
          isSet={saved.telegram.botTokenSet}
          value={draft.telegram.botToken ?? ''}
          onChange={(botToken) => change('telegram', { botToken })}
        />
        <TextField
          id="notify-telegram-chat"
          label="Chat id (a number, or @channel)"
          value={draft.telegram.chatId}
          onChange={(chatId) => change('telegram', { chatId })}
        />
      </TargetFieldset>
      <TargetFieldset {...common('mastodon')}>
        <TextField
          id="notify-mastodon-url"
          label="Mastodon server address"
          type="url"
          value={draft.mastodon.instanceUrl}
          onChange={(instanceUrl) => change('mastodon', { instanceUrl })}
          placeholder="https://mastodon.social"
        />
        <SecretField
          id="notify-mastodon-token"
          label="Access token (with write:statuses)"
          isSet={saved.mastodon.accessTokenSet}
          value={draft.mastodon.accessToken ?? ''}
          onChange={(accessToken) => change('mastodon', { accessToken })}
        />
        <div className="space-y-2">
          <Label htmlFor="notify-mastodon-visibility">Who sees the posts</Label>
          <select
            id="notify-mastodon-visibility"
            className="block h-9 rounded-md border border-slate-300 bg-white px-2 text-sm"
            value={draft.mastodon.visibility}
            onChange={(e) => change('mastodon', { visibility: e.target.value as MastodonVisibility })}
          >
            <option value="public">Public</option>
            <option value="unlisted">Unlisted</option>
            <option value="private">Followers only</option>
          </select>
        </div>
      </TargetFieldset>
      <FieldError id="notifications-error" message={error} />
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save Notifications'}
      </Button>
    </form>
  );
}

function TargetFieldset(props: {
  target: NotificationTarget;
  enabled: boolean;
  events: NotificationEventType[];
  onEnabled: (enabled: boolean) => void;
  onEvents: (events: NotificationEventType[]) => void;
  last: DeliveryResult | null;
  /** Cannot be switched on (e-mail without the station's mail server); one left on can still be switched off. */
  unavailable?: boolean;
  children: ReactNode;
}) {
  const label = NOTIFICATION_TARGET_LABELS[props.target];
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-4" aria-label={label}>
      <legend className="px-1 text-sm font-semibold text-slate-900">{label}</legend>
      <label className="flex items-center gap-2 text-sm text-slate-900">
        <input
          type="checkbox"
          checked={props.enabled}
          disabled={props.unavailable && !props.enabled}
          onChange={(e) => props.onEnabled(e.target.checked)}
        />
        Send {label === 'E-mail' ? 'e-mail' : `to ${label}`}
      </label>
      <div className="grid gap-3 sm:grid-cols-2">{props.children}</div>
      <details>
        <summary className="cursor-pointer text-sm text-slate-700">
          Events ({props.events.length} of {NOTIFICATION_EVENTS.length})
        </summary>
        <div className="mt-2 grid gap-1 sm:grid-cols-2">
          {NOTIFICATION_EVENTS.map((event) => (
            <label key={event} className="flex items-center gap-2 text-sm text-slate-900">
              <input
                type="checkbox"
                aria-label={`${label}: ${NOTIFICATION_EVENT_LABELS[event]}`}
                checked={props.events.includes(event)}
                onChange={(e) =>
                  props.onEvents(
                    NOTIFICATION_EVENTS.filter((one) =>
                      one === event ? e.target.checked : props.events.includes(one),
                    ),
                  )
                }
              />
              {NOTIFICATION_EVENT_LABELS[event]}
            </label>
          ))}
        </div>
      </details>
      <TestRow target={props.target} last={props.last} />
    </fieldset>
  );
}

const when = (at: string) =>
  new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function TestRow({ target, last }: { target: NotificationTarget; last: DeliveryResult | null }) {
  const test = useSendTestNotification();
  const label = NOTIFICATION_TARGET_LABELS[target];
  const result = test.data;
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={test.isPending}
        aria-label={`Send test to ${label}`}
        onClick={() => test.mutate(target)}
      >
        {test.isPending ? 'Sending...' : 'Send test'}
      </Button>
      <span role="status" aria-label={`${label} result`}>
        {test.isError && (
          <span className="text-red-700">{serverMessage(test.error) ?? 'The test could not be sent.'}</span>
        )}
        {!test.isError && result && (
          <span className={result.ok ? 'text-green-800' : 'text-red-700'}>Test: {result.message}</span>
        )}
        {!test.isError && !result && (
          <span className="text-slate-600">
            {last ? `Last: ${last.message} (${when(last.at)})` : 'Nothing sent yet.'}
          </span>
        )}
      </span>
    </div>
  );
}

function TextField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  placeholder?: string;
}) {
  return (
    <div className="space-y-2">
      <Label htmlFor={props.id}>{props.label}</Label>
      <Input
        id={props.id}
        type={props.type ?? 'text'}
        value={props.value}
        placeholder={props.placeholder}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}

/** A secret is never shown: the field says whether one is saved, and blank keeps it. */
function SecretField(props: {
  id: string;
  label: string;
  isSet: boolean;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
}) {
  return (
    <div className="space-y-2">
      <Label htmlFor={props.id}>{props.label}</Label>
      <Input
        id={props.id}
        type="password"
        autoComplete="off"
        value={props.value}
        placeholder={props.isSet ? 'Saved (leave blank to keep it)' : (props.placeholder ?? 'Not set')}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}
