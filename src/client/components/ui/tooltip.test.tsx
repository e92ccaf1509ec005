import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOOLTIP_DELAY_MS } from '../../../common/ui';
import { Tooltip, TooltipContent, TooltipTrigger } from './tooltip';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('Tooltip', () => {
  it('opens 700 ms after the pointer rests on its trigger', () => {
    render(
      <Tooltip>
        <TooltipTrigger>Play</TooltipTrigger>
        <TooltipContent>Turn On</TooltipContent>
      </Tooltip>,
    );
    const trigger = screen.getByRole('button', { name: 'Play' });
    fireEvent.pointerMove(trigger, { pointerType: 'mouse' });
    act(() => vi.advanceTimersByTime(TOOLTIP_DELAY_MS - 1));
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('tooltip')).toHaveTextContent('Turn On');
  });
});
