import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Transcript } from '../../../../common/speech';
import { fakeStaffApi, type FakeAnswer, type FakeRequest } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { TranscriptButton } from './transcript-dialog';
import { recordingTime } from './transcript-lines';

afterEach(() => vi.unstubAllGlobals());

const PATH = '/api/speech/transcripts/m1';
const ready = (over: Partial<Transcript> = {}): Transcript => ({
  status: 'ready',
  engine: 'pocketsphinx',
  language: 'en',
  cues: [
    { text: 'Today we read from the book of songs', start: 0.5, end: 3.2 },
    { text: 'The Lord is my shepherd', start: 3.4, end: 6.4 },
    { text: 'I shall not want', start: 64.2, end: 66 },
  ],
  edited: false,
  error: null,
  updatedAt: '2026-12-04T10:00:00.000Z',
  ...over,
});

function setUp(answer: () => FakeAnswer) {
  const api = fakeStaffApi({
    [`GET ${PATH}`]: () => answer(),
    [`PUT ${PATH}`]: (r: FakeRequest) => ({
      status: 200,
      body: ready({ cues: (r.body as Transcript).cues, edited: true }),
    }),
    [`POST ${PATH}/redo`]: { status: 202 },
  });
  renderWithProviders(<TranscriptButton mediaId="m1" title="The Good Shepherd" />);
  return { api, user: userEvent.setup({ delay: null }) };
}

const open = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.click(screen.getByRole('button', { name: 'Transcript of The Good Shepherd' }));
  return screen.findByRole('dialog', { name: 'Transcript: The Good Shepherd' });
};

describe('the transcript screen', () => {
  it('says it is waiting while there is none, then in progress, then shows the timed lines when done', async () => {
    let answer: FakeAnswer = { status: 404, body: { message: 'This item has no transcript yet' } };
    const { user } = setUp(() => answer);
    const dialog = await open(user);
    expect(await within(dialog).findByTestId('transcript-state')).toHaveTextContent(
      /^Waiting: No transcript yet.*automatic captions are on \(Captions tab\)/,
    );
    expect(within(dialog).queryByRole('button', { name: 'Transcribe again' })).toBeNull();
    answer = { status: 200, body: { ...ready(), status: 'working', cues: [] } };
    await vi.waitFor(
      () =>
        expect(within(dialog).getByTestId('transcript-state')).toHaveTextContent(
          'In progress: The recording is being transcribed by pocketsphinx.',
        ),
      { timeout: 8000 },
    );
    answer = { status: 200, body: ready() };
    expect(await within(dialog).findByLabelText('Line at 1:04', {}, { timeout: 8000 })).toHaveValue(
      'I shall not want',
    );
    expect(within(dialog).getByTestId('transcript-state')).toHaveTextContent(
      'Done: Transcribed by pocketsphinx.',
    );
    expect(within(dialog).getByRole('link', { name: /captions file/ })).toHaveAttribute(
      'href',
      `${PATH}/transcript.vtt`,
    );
  }, 25_000);

  it('saves a corrected line with the times as recognised, and says it was corrected', async () => {
    const { api, user } = setUp(() => ({ status: 200, body: ready() }));
    const dialog = await open(user);
    const save = await within(dialog).findByRole('button', { name: 'Save corrections' });
    expect(save).toBeDisabled();
    const line = within(dialog).getByLabelText('Line at 0:00');
    await user.clear(line);
    await user.type(line, '  Today we read from the book of Psalms ');
    expect(within(dialog).getByText('1 line changed')).toBeInTheDocument();
    await user.click(save);
    await vi.waitFor(() => expect(api.calls('PUT', PATH)).toHaveLength(1));
    expect(api.calls('PUT', PATH)[0]!.body).toEqual({
      cues: [
        { ...ready().cues[0]!, text: 'Today we read from the book of Psalms' },
        ...ready().cues.slice(1),
      ],
    });
    expect(
      await within(dialog).findByText(
        'Saved: listeners and podcast apps now get the corrected transcript of "The Good Shepherd".',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByTestId('transcript-state')).toHaveTextContent('corrected by staff');
    expect(within(dialog).getByLabelText('Line at 0:00')).toHaveValue(
      'Today we read from the book of Psalms',
    );
  });

  it('will not save an emptied line, and undoes changes', async () => {
    const { api, user } = setUp(() => ({ status: 200, body: ready() }));
    const dialog = await open(user);
    const line = await within(dialog).findByLabelText('Line at 0:03');
    await user.clear(line);
    expect(within(dialog).getByRole('alert')).toHaveTextContent('A line must not be empty');
    expect(line).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByRole('button', { name: 'Save corrections' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Undo changes' }));
    expect(line).toHaveValue('The Lord is my shepherd');
    expect(api.calls('PUT', PATH)).toHaveLength(0);
  });

  it('shows why it failed and transcribes it again, then waits for the new one', async () => {
    let answer: FakeAnswer = {
      status: 200,
      body: { ...ready(), status: 'failed', cues: [], error: 'the file could not be decoded' },
    };
    const { api, user } = setUp(() => answer);
    const dialog = await open(user);
    expect(await within(dialog).findByTestId('transcript-state')).toHaveTextContent(
      'Failed: the file could not be decoded',
    );
    answer = { status: 404, body: { message: 'This item has no transcript yet' } };
    await user.click(within(dialog).getByRole('button', { name: 'Transcribe again' }));
    await vi.waitFor(() => expect(api.calls('POST', `${PATH}/redo`)).toHaveLength(1));
    expect(await within(dialog).findByText(/^Waiting/)).toBeInTheDocument();
  });

  it('asks first before a corrected transcript is made again', async () => {
    const { api, user } = setUp(() => ({ status: 200, body: ready({ edited: true }) }));
    const dialog = await open(user);
    await user.click(await within(dialog).findByRole('button', { name: 'Transcribe again' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Transcribe again?' });
    expect(confirm).toHaveTextContent('The corrections made to "The Good Shepherd" will be replaced');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.calls('POST', `${PATH}/redo`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Transcribe again' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Transcribe again' }),
    );
    await vi.waitFor(() => expect(api.calls('POST', `${PATH}/redo`)).toHaveLength(1));
  });

  it('writes recording times as a listener reads them', () => {
    expect([0.5, 64.2, 3599.9, 3723].map(recordingTime)).toEqual(['0:00', '1:04', '59:59', '1:02:03']);
  });
});
