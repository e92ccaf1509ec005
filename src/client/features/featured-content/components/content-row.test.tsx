import { screen, within } from '@testing-library/react';
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
