import { useState } from 'react';
import { MUTE_MINUTES, type StaffChatMessage } from '../../../../common/chat-moderation';
import { CardHeading, countOf } from '../../../components/card-heading';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { Skeleton } from '../../../components/ui/skeleton';
import { Textarea } from '../../../components/ui/textarea';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import {
  useBlockedWords,
  useDeleteChatMessage,
  useModerationLog,
  useMuteSender,
  useSaveBlockedWords,
  useStaffChatMessages,
  useUnmuteSender,
} from '../staff-api';

const when = (iso: string) => new Date(iso).toLocaleString();
const LENGTH_LABEL: Record<number, string> = {
  10: '10 minutes',
  60: '1 hour',
  1_440: '1 day',
  10_080: '1 week',
};
const ACTION_LABEL = {
  delete: 'Deleted',
  mute: 'Muted',
  unmute: 'Unmuted',
  blocked_words: 'Blocked words set to',
};

/** DESIGN.md section 7: the staff's Chat tab: recent messages live, delete, hidden mute, blocked words. */
export function ChatTab() {
  return (
    <div className="space-y-6">
      <RecentMessages />
      <BlockedWords />
      <ModerationRecord />
    </div>
  );
}

function RecentMessages() {
  const messages = useStaffChatMessages();
  const [minutes, setMinutes] = useState<number>(MUTE_MINUTES[0]);
  const shown = messages.data ?? [];

  return (
    <Card>
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between sm:space-y-0">
        <CardHeading
          title="Live Chat"
          description={
            messages.data
              ? `${countOf(shown.length, 'recent message')}, newest first`
              : 'What listeners are saying, as they say it'
          }
        />
        <div className="flex items-center gap-2">
          <Label htmlFor="mute-length" className="text-xs text-slate-600">
            Mute for
          </Label>
          <Select value={String(minutes)} onValueChange={(v) => setMinutes(Number(v))}>
            <SelectTrigger id="mute-length" className="h-8 w-32 text-xs">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {MUTE_MINUTES.map((m) => (
                <SelectItem key={m} value={String(m)}>
                  {LENGTH_LABEL[m]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </CardHeader>
      <CardContent>
        {messages.isPending && <Skeleton className="h-24" />}
        {messages.isError && <p className="text-sm text-red-700">The chat could not be loaded.</p>}
        {messages.data?.length === 0 && <p className="text-sm text-slate-600">No messages yet.</p>}
        {shown.length > 0 && (
          <ul
            aria-label="Chat messages"
            className="max-h-96 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200"
          >
            {shown.map((m) => (
              <MessageRow key={m.id} message={m} minutes={minutes} />
            ))}
          </ul>
        )}
        <p className="mt-3 text-xs text-slate-600">
          A muted listener is not told: they still see their own messages, and nobody else does.
        </p>
      </CardContent>
    </Card>
  );
}

function MessageRow({ message: m, minutes }: { message: StaffChatMessage; minutes: number }) {
  const remove = useDeleteChatMessage();
  const mute = useMuteSender();
  const unmute = useUnmuteSender();
  const deleted = m.deletedAt !== null;

  return (
    <li className="space-y-1 px-3 py-2" data-deleted={deleted || undefined}>
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
        <span className="font-medium text-slate-900">{m.username}</span>
        <span>{when(m.createdAt)}</span>
        {m.muted && <Badge variant="secondary">Hidden: sent while muted</Badge>}
        {deleted && <Badge variant="outline">Deleted</Badge>}
        {m.senderMutedUntil && <Badge variant="gold">Sender muted until {when(m.senderMutedUntil)}</Badge>}
      </div>
      <p className={deleted ? 'text-sm text-slate-500 line-through' : 'text-sm text-slate-800'}>
        {m.message}
      </p>
      <div className="flex flex-wrap gap-2">
        {!deleted && (
          <Button
            size="sm"
            variant="outline"
            disabled={remove.isPending}
            aria-label={`Delete message from ${m.username}`}
            onClick={() =>
              remove.mutate(m.id, {
                onError: (e) => notifyFailure('Error', e, 'Could not delete the message'),
              })
            }
          >
            Delete
          </Button>
        )}
        {m.sender &&
          (m.senderMutedUntil ? (
            <Button
              size="sm"
              variant="outline"
              disabled={unmute.isPending}
              aria-label={`Unmute ${m.username}`}
              onClick={() =>
                unmute.mutate(m.sender!, { onError: (e) => notifyFailure('Error', e, 'Could not unmute') })
              }
            >
              Unmute
            </Button>
          ) : (
            <Button
              size="sm"
              variant="outline"
              disabled={mute.isPending}
              aria-label={`Mute ${m.username}`}
              onClick={() =>
                mute.mutate(
                  { messageId: m.id, minutes },
                  { onError: (e) => notifyFailure('Error', e, 'Could not mute the sender') },
                )
              }
            >
              Mute
            </Button>
          ))}
      </div>
    </li>
  );
}

function BlockedWords() {
  const words = useBlockedWords();
  return (
    <Card>
      <CardHeader>
        <CardHeading
          title="Blocked Words"
          description="One word or phrase a line, in any language. A message holding one is refused; whole words only."
        />
      </CardHeader>
      <CardContent>
        {words.isPending && <Skeleton className="h-24" />}
        {words.isError && <p className="text-sm text-red-700">The blocked words could not be loaded.</p>}
        {/* Keyed by the saved list, so the form starts again from what the station holds. */}
        {words.data && <BlockedWordsForm key={words.data.words.join('\n')} saved={words.data.words} />}
      </CardContent>
    </Card>
  );
}

function BlockedWordsForm({ saved }: { saved: string[] }) {
  const save = useSaveBlockedWords();
  const [text, setText] = useState(saved.join('\n'));
  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        // A promise, not mutate's callbacks: the saved list re-keys (remounts) this form before they would run.
        save
          .mutateAsync(text.split('\n'))
          .then((result) => notifySuccess('Blocked words saved', `${result.words.length} in the list`))
          .catch((error: unknown) => notifyFailure('Error', error, 'Could not save the blocked words'));
      }}
    >
      <Label htmlFor="blocked-words" className="sr-only">
        Blocked words
      </Label>
      <Textarea id="blocked-words" rows={5} value={text} onChange={(e) => setText(e.target.value)} />
      <Button type="submit" size="sm" disabled={save.isPending}>
        Save blocked words
      </Button>
    </form>
  );
}

function ModerationRecord() {
  const log = useModerationLog();
  return (
    <Card>
      <CardHeader>
        <CardHeading title="Moderation Record" description="Every action, with who took it" />
      </CardHeader>
      <CardContent>
        {log.isPending && <Skeleton className="h-16" />}
        {log.isError && <p className="text-sm text-red-700">The record could not be loaded.</p>}
        {log.data?.length === 0 && <p className="text-sm text-slate-600">No moderation yet.</p>}
        {log.data && log.data.length > 0 && (
          <ul
            aria-label="Moderation record"
            className="max-h-60 space-y-1 overflow-y-auto text-xs text-slate-700"
          >
            {log.data.map((a) => (
              <li key={a.id}>
                <span className="text-slate-500">{when(a.createdAt)}</span> {a.staffUsername}:{' '}
                {ACTION_LABEL[a.action]}{' '}
                {a.action === 'blocked_words' ? `${a.target} entries` : (a.detail ?? a.target)}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
