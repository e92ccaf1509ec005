import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  CHAT_MESSAGE_COUNTER_WITHIN,
  CHAT_MESSAGE_MAX,
  CHAT_USERNAME_MAX,
  DEFAULT_CHAT_USERNAME,
} from '../../../../common/chat-limits';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import type { WsClient } from '../../../lib/ws-client';
import { loadSharedSocket, useChat } from '../use-chat';
import { useChatUsername } from '../use-chat-username';
import { useSeen } from '../use-seen';

/** SPEC.md section 2 home row 4 and section 4 (Chat): the live community chat card. */
export function ChatCard({ load = loadSharedSocket }: { load?: () => Promise<WsClient> }) {
  const card = useRef<HTMLDivElement>(null);
  const { status, messages, presence, error, send } = useChat(useSeen(card), load);
  const [username, setUsername] = useChatUsername();
  const [draft, setDraft] = useState('');
  /** The message last sent, put back in the box if the station refuses it (too fast, a blocked word). */
  const sent = useRef('');
  const box = useRef<HTMLDivElement>(null);
  const connected = status === 'open';
  const left = CHAT_MESSAGE_MAX - draft.length;

  useEffect(() => {
    if (!error || !sent.current) return;
    const refused = sent.current;
    sent.current = '';
    setDraft((current) => current || refused);
  }, [error]);

  useEffect(() => {
    // Keep the newest message in view.
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages]);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!send(username.trim() || DEFAULT_CHAT_USERNAME, draft)) return;
    sent.current = draft;
    setDraft('');
  }

  return (
    <Card ref={card}>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2 space-y-0">
        <CardTitle>Live Community Chat</CardTitle>
        <div className="flex items-center gap-3 text-sm">
          {presence && (
            // Two counts, each named for what it is: open station pages on the live socket (summed
            // over every instance), and connections to the audio stream.
            <>
              <span className="text-slate-600" data-testid="online-count">
                {presence.chatting} online
              </span>
              <span className="text-slate-600" data-testid="listener-count">
                {presence.listening} listening to the stream
              </span>
            </>
          )}
          {/* Not role="status": the player's connection status is the page's one status region. */}
          <span
            aria-live="polite"
            className={`flex items-center gap-1 font-medium ${connected ? 'text-emerald-700' : 'text-red-700'}`}
          >
            <span
              aria-hidden
              className={`h-2 w-2 rounded-full ${connected ? 'bg-emerald-500' : 'bg-red-500'}`}
            />
            {connected ? 'Connected' : 'Disconnected'}
          </span>
        </div>
      </CardHeader>
      <CardContent className="space-y-3">
        <div
          ref={box}
          aria-label="Chat messages"
          aria-live="polite"
          className="h-64 space-y-2 overflow-y-auto rounded-md border border-slate-200 bg-slate-50 p-3"
        >
          {messages.length === 0 ? (
            <p className="text-center text-sm text-slate-500">No messages yet. Start the conversation!</p>
          ) : (
            messages.map((m) => (
              <p key={m.id} className="text-sm break-words">
                <span className="font-semibold text-amber-800">{m.username}:</span> {m.message}
              </p>
            ))
          )}
        </div>
        {error && (
          <p role="alert" className="text-sm font-medium text-red-700">
            {error}
          </p>
        )}
        <form onSubmit={onSubmit} className="space-y-2">
          <div className="flex items-center gap-2">
            <Label htmlFor="chat-username" className="shrink-0">
              Name
            </Label>
            <Input
              id="chat-username"
              value={username}
              maxLength={CHAT_USERNAME_MAX}
              onChange={(e) => setUsername(e.target.value)}
            />
          </div>
          <div className="flex gap-2">
            <Input
              aria-label="Message"
              placeholder="Type a message…"
              value={draft}
              maxLength={CHAT_MESSAGE_MAX}
              aria-describedby={left <= CHAT_MESSAGE_COUNTER_WITHIN ? 'chat-message-left' : undefined}
              disabled={!connected}
              onChange={(e) => setDraft(e.target.value)}
            />
            <Button type="submit" disabled={!connected}>
              Send
            </Button>
          </div>
          {left <= CHAT_MESSAGE_COUNTER_WITHIN && (
            <p
              id="chat-message-left"
              data-testid="chat-message-left"
              className={`text-right text-xs ${left === 0 ? 'font-semibold text-red-700' : 'text-slate-600'}`}
            >
              {left === 1 ? '1 character left' : `${left} characters left`}
            </p>
          )}
        </form>
      </CardContent>
    </Card>
  );
}
