import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeStaffApi } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { ContentRow } from './content-row';

afterEach(() => vi.unstubAllGlobals());

const item = { id: 'c1', type: 'sermon', title: 'Walking in Faith', description: 'Hebrews 11', playCount: 0 };

describe('Content row', () => {
  it.each([
    [true, true],
    [false, false],
    [undefined, false],
  ])('marks an item as Sample only when it is sample content (%s)', (sample, marked) => {
    fakeStaffApi({});
    renderWithProviders(
      <ul>
        <ContentRow item={{ ...item, sample }} />
      </ul>,
    );
    expect(within(screen.getByTestId('content-row')).queryByText('Sample') !== null).toBe(marked);
  });
});

describe('Content row: the transcript of its audio', () => {
  it('opens the transcript screen where its audio has a finished transcript, and offers none otherwise', async () => {
    fakeStaffApi({
      'GET /api/speech/transcripts/m1': {
        status: 200,
        body: {
          status: 'ready',
          engine: 'pocketsphinx',
          language: 'en',
          cues: [{ text: 'Now faith is the substance of things hoped for', start: 1, end: 4 }],
          edited: false,
          error: null,
          updatedAt: '2026-12-04T10:00:00.000Z',
        },
      },
    });
    renderWithProviders(
      <ul>
        <ContentRow
          item={{
            ...item,
            audioUrl: '/uploads/a.mp3',
            transcriptUrl: '/api/speech/transcripts/m1/transcript.vtt',
          }}
        />
        <ContentRow item={{ ...item, id: 'c2', title: 'No transcript', audioUrl: '/uploads/b.mp3' }} />
      </ul>,
    );
    expect(screen.queryByRole('button', { name: 'Transcript of No transcript' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Transcript of Walking in Faith' }));
    const dialog = await screen.findByRole('dialog', { name: 'Transcript: Walking in Faith' });
    expect(await within(dialog).findByLabelText('Line at 0:01')).toHaveValue(
      'Now faith is the substance of things hoped for',
    );
  });
});
