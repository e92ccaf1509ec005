import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WsClient } from '../../../lib/ws-client';
import { FakeSocket } from '../../../test/fake-socket';
import { ChatCard } from './chat-card';

const latest = FakeSocket.latest;
const msg = (id: number, message: string, username = 'Ruth') => ({
  id,
  username,
  message,
  createdAt: '2026-01-01T10:00:00.000Z',
});

let client: WsClient;

beforeEach(() => {
  FakeSocket.all = [];
  localStorage.clear();
  client = new WsClient({
    url: 'ws://station/ws',
    createSocket: () => new FakeSocket() as unknown as WebSocket,
    minDelayMs: 5,
    maxDelayMs: 20,
  });
});
afterEach(() => client.stop());

async function renderOpen() {
  render(<ChatCard load={() => Promise.resolve((client.start(), client))} />);
  await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
  act(() => latest().open());
  await screen.findByText('Connected');
}

describe('ChatCard', () => {
  it('is disconnected with input and send disabled until the socket opens', async () => {
    render(<ChatCard load={() => Promise.resolve((client.start(), client))} />);
    expect(await screen.findByText('Disconnected')).toBeInTheDocument();
    expect(screen.getByLabelText('Message')).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(screen.getByText('No messages yet. Start the conversation!')).toBeInTheDocument();
    act(() => latest().open());
    expect(await screen.findByText('Connected')).toBeInTheDocument();
    expect(screen.getByLabelText('Message')).toBeEnabled();
  });

  it('shows the history, then new messages, and drops a deleted one', async () => {
    await renderOpen();
    act(() => latest().deliver({ type: 'chat_history', data: [msg(1, 'Good morning'), msg(2, 'Amen')] }));
    expect(await screen.findByText('Good morning')).toBeInTheDocument();
    act(() => latest().deliver({ type: 'chat', data: msg(3, 'Blessings', 'Paul') }));
    expect(await screen.findByText('Blessings')).toBeInTheDocument();
    act(() => latest().deliver({ type: 'chat_deleted', data: { id: 2 } }));
    await waitFor(() => expect(screen.queryByText('Amen')).not.toBeInTheDocument());
    expect(screen.queryByText('No messages yet. Start the conversation!')).not.toBeInTheDocument();
  });

  it("sends type 'chat' with the username (Anonymous by default, kept) and never a blank message", async () => {
    await renderOpen();
    expect(screen.getByLabelText('Name')).toHaveValue('Anonymous');
    await userEvent.type(screen.getByLabelText('Message'), '   {Enter}');
    expect(latest().sentMessages()).toEqual([]);
    await userEvent.type(screen.getByLabelText('Message'), 'Hello church{Enter}');
    expect(latest().sentMessages()).toEqual([
      { type: 'chat', username: 'Anonymous', message: 'Hello church' },
    ]);
    expect(screen.getByLabelText('Message')).toHaveValue('');
    await userEvent.clear(screen.getByLabelText('Name'));
    await userEvent.type(screen.getByLabelText('Name'), 'Lydia');
    expect(localStorage.getItem('chat-username')).toBe('Lydia');
    await userEvent.type(screen.getByLabelText('Message'), 'Hi{Enter}');
    expect(latest().sentMessages().at(-1)).toEqual({ type: 'chat', username: 'Lydia', message: 'Hi' });
  });

  it("names each count for what it is: pages online and the stream's listeners", async () => {
    await renderOpen();
    act(() => latest().deliver({ type: 'presence', data: { listening: 0, chatting: 3 } }));
    expect(await screen.findByTestId('online-count')).toHaveTextContent(/^3 online$/);
    expect(screen.getByTestId('listener-count')).toHaveTextContent(/^0 listening to the stream$/);
  });

  it("shows the station's refusal and puts the refused message back in the box", async () => {
    await renderOpen();
    await userEvent.type(screen.getByLabelText('Message'), 'Hallelujah{Enter}');
    expect(latest().sentMessages()).toHaveLength(1);
    expect(screen.getByLabelText('Message')).toHaveValue('');
    act(() => latest().deliver({ type: 'error', message: 'Please wait before sending again' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please wait before sending again');
    expect(screen.getByLabelText('Message')).toHaveValue('Hallelujah');
  });

  it('counts down the characters left near the 500 limit and takes no more than 500', async () => {
    const user = userEvent.setup();
    await renderOpen();
    const box = screen.getByLabelText('Message');
    await user.click(box);
    await user.paste('a'.repeat(399));
    expect(screen.queryByTestId('chat-message-left')).not.toBeInTheDocument();
    await user.type(box, 'b');
    expect(screen.getByTestId('chat-message-left')).toHaveTextContent('100 characters left');
    expect(box).toHaveAccessibleDescription('100 characters left');
    await user.paste('c'.repeat(150));
    const full = `${'a'.repeat(399)}b${'c'.repeat(100)}`;
    expect(box).toHaveValue(full);
    expect(screen.getByTestId('chat-message-left')).toHaveTextContent('0 characters left');
    await user.type(box, '{Enter}');
    expect(latest().sentMessages().at(-1)).toMatchObject({ message: full });
  });

  it('goes disconnected when the socket closes and reconnects by itself, history replacing the list', async () => {
    await renderOpen();
    act(() => latest().deliver({ type: 'chat_history', data: [msg(1, 'Before')] }));
    await screen.findByText('Before');
    act(() => latest().close());
    expect(await screen.findByText('Disconnected')).toBeInTheDocument();
    expect(screen.getByLabelText('Message')).toBeDisabled();
    await waitFor(() => expect(FakeSocket.all).toHaveLength(2));
    act(() => latest().open());
    act(() => latest().deliver({ type: 'chat_history', data: [msg(1, 'Before'), msg(2, 'During')] }));
    expect(await screen.findByText('During')).toBeInTheDocument();
    expect(screen.getAllByText('Before')).toHaveLength(1);
    expect(screen.getByText('Connected')).toBeInTheDocument();
  });
});
