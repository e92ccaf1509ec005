import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScheduledProgram } from '../../../../common/programs';
import { fakeStaffApi } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { WeekView } from './week-view';

afterEach(() => vi.unstubAllGlobals());

const programme: ScheduledProgram = {
  id: 'p1',
  title: 'Midday Word',
  speaker: 'Pastor James Whitfield',
  ministryFocus: null,
  description: null,
  startTime: '12:00',
  duration: 60,
  dayOfWeek: 'monday',
  isActive: true,
  airs: { kind: 'rotation', start: 'on_time', fillPlaylistId: null },
  overlapsWith: [],
};
const noop = () => {};

describe('Week view', () => {
  it.each([
    [true, true],
    [false, false],
    [undefined, false],
  ])('marks a programme as Sample only when it is sample content (%s)', (sample, marked) => {
    fakeStaffApi({});
    renderWithProviders(
      <WeekView
        programs={[{ ...programme, sample }]}
        onAdd={noop}
        onEdit={noop}
        onToggle={noop}
        onDelete={noop}
      />,
    );
    expect(within(screen.getByTestId('schedule-entry')).queryByText('Sample') !== null).toBe(marked);
  });
});
