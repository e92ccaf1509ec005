import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SpeechSettings } from '../../../../common/speech';
import { fakeStaffApi, type FakeRequest } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { AutomaticCaptions } from './automatic-captions';

afterEach(() => vi.unstubAllGlobals());

const program = (id: string, title: string, kind: 'live' | 'rotation') => ({
  id,
  title,
  speaker: null,
  ministryFocus: null,
  description: null,
  startTime: '10:00',
  duration: 60,
  dayOfWeek: 'sunday',
  isActive: true,
  airs:
    kind === 'live'
      ? { kind: 'live', presenterId: 'presenter-1', start: 'on_time' }
      : { kind: 'rotation', start: 'on_time', fillPlaylistId: null },
  overlapsWith: [],
  sample: false,
});

function setUp() {
  let saved: SpeechSettings = { enabled: false, programmeIds: [], wordList: ['Habakkuk'] };
  const api = fakeStaffApi({
    'GET /api/speech/settings': () => ({ status: 200, body: saved }),
    'PUT /api/speech/settings': (r: FakeRequest) => {
      saved = r.body as SpeechSettings;
      return { status: 200, body: saved };
    },
    'GET /api/speech/status': {
      status: 200,
      body: {
        engine: 'pocketsphinx',
        state: 'paused',
        captioning: 'Live: Sunday Service',
        behindSeconds: 1.2,
        reason: 'it stopped (SIGKILL)',
        wordList: { known: [], added: ['habakkuk'], unknown: ['xq'] },
      },
    },
    'GET /api/programs': {
      status: 200,
      body: {
        timeZone: 'UTC',
        today: '2026-12-04',
        programs: [
          program('live1', 'Sunday Service', 'live'),
          program('music1', 'Morning Music', 'rotation'),
        ],
      },
    },
  });
  renderWithProviders(<AutomaticCaptions />);
  return { api, user: userEvent.setup({ delay: null }) };
}

describe('Automatic captions', () => {
  it('shows which engine runs, how far behind and why it is paused; turns on for the station and a live programme', async () => {
    const { api, user } = setUp();
    expect(await screen.findByTestId('speech-status')).toHaveTextContent(
      'Paused · Live: Sunday Service · 1.2 s behind · engine: pocketsphinx',
    );
    expect(screen.getByTestId('speech-status')).toHaveTextContent('it stopped (SIGKILL)');
    expect(screen.getByText('The engine could not learn: xq')).toBeInTheDocument();
    // Only live programmes are offered.
    expect(await screen.findByLabelText(/Sunday Service/)).toBeInTheDocument();
    expect(screen.queryByLabelText(/Morning Music/)).toBeNull();
    await user.click(screen.getByRole('switch', { name: "Caption the station's speech" }));
    await vi.waitFor(() => expect(api.calls('PUT', '/api/speech/settings')).toHaveLength(1));
    expect(api.calls('PUT', '/api/speech/settings')[0]!.body).toEqual({
      enabled: true,
      programmeIds: [],
      wordList: ['Habakkuk'],
    });
    await user.click(screen.getByLabelText(/Sunday Service/));
    await vi.waitFor(() => expect(api.calls('PUT', '/api/speech/settings')).toHaveLength(2));
    expect(api.calls('PUT', '/api/speech/settings')[1]!.body).toMatchObject({
      enabled: true,
      programmeIds: ['live1'],
    });
  }, 20_000);

  it('saves the word list as words', async () => {
    const { api, user } = setUp();
    const box = await screen.findByLabelText(/Words to recognise/);
    await user.clear(box);
    await user.type(box, 'Habakkuk, Nebuchadnezzar\nGalilee');
    await user.click(screen.getByRole('button', { name: 'Save words' }));
    await vi.waitFor(() => expect(api.calls('PUT', '/api/speech/settings')).toHaveLength(1));
    expect(api.calls('PUT', '/api/speech/settings')[0]!.body).toMatchObject({
      wordList: ['Habakkuk', 'Nebuchadnezzar', 'Galilee'],
    });
  });
});
