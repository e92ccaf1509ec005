import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST_DURATION_MS, TOAST_LIMIT, TOAST_REMOVE_DELAY } from '../../../common/ui';
import { Toaster } from './toaster';
import { reducer, toast, type ToasterToast } from './use-toast';

const item = (id: string): ToasterToast => ({ id, title: id, open: true });

describe('toast store', () => {
  it('keeps at most one toast, the newest', () => {
    expect(TOAST_LIMIT).toBe(1);
    let state = reducer({ toasts: [] }, { type: 'ADD_TOAST', toast: item('first') });
    state = reducer(state, { type: 'ADD_TOAST', toast: item('second') });
    expect(state.toasts.map((t) => t.id)).toEqual(['second']);
  });
});

describe('Toaster', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    act(() => vi.advanceTimersByTime(TOAST_REMOVE_DELAY));
    vi.useRealTimers();
  });

  it('shows one toast at a time', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'First', description: 'one' });
      toast({ title: 'Second', description: 'two' });
    });
    expect(screen.queryByText('First')).toBeNull();
    expect(screen.getByText('Second')).toBeInTheDocument();
    expect(screen.getAllByRole('status')).toHaveLength(1);
  });

  it('dismisses itself after 5000 ms', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Link copied!' });
    });
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 100));
    expect(screen.getByText('Link copied!')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('Link copied!')).toBeNull();
  });

  it('shows a toast raised after it rendered and before it subscribed (the area mounting as a save ends)', () => {
    let raised = false;
    // Renders after the Toaster in the same pass: its toast comes before the Toaster's effects have run.
    function RaisesWhileMounting() {
      if (!raised) {
        raised = true;
        toast({ title: 'Programme added' });
      }
      return null;
    }
    render(
      <>
        <Toaster />
        <RaisesWhileMounting />
      </>,
    );
    expect(screen.getByText('Programme added')).toBeInTheDocument();
  });

  it('F8 focuses the notification area', () => {
    render(<Toaster />);
    const viewport = screen.getByRole('region');
    expect(viewport).toHaveAttribute('aria-label', expect.stringContaining('F8'));
    fireEvent.keyDown(document, { key: 'F8', code: 'F8' });
    expect(document.activeElement).toBe(screen.getByRole('list', { hidden: true }));
  });
});
