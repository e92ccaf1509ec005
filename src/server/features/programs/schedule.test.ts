import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAYS_OF_WEEK } from '../../../common/programs.js';
import { clashesWith, overlapInWeek, overlapMessage, weeklyOverlaps, type WeeklyEntry } from './schedule.js';

const weekly = (over: Partial<WeeklyEntry>): WeeklyEntry => ({
  id: over.title ?? 'p',
  title: 'Programme',
  speaker: 'S',
  ministryFocus: null,
  description: null,
  startTime: '12:00',
  duration: 60,
  dayOfWeek: 'monday',
  isActive: 'true',
  airs: null,
  ...over,
});

describe('overlapInWeek', () => {
  it.each([
    ['the same hour', ['monday', '12:00', 60], ['monday', '12:30', 60], true],
    ['back to back', ['monday', '12:00', 60], ['monday', '13:00', 60], false],
    ['different days', ['monday', '12:00', 60], ['tuesday', '12:00', 60], false],
    ['past midnight into the next day', ['monday', '23:00', 120], ['tuesday', '00:30', 30], true],
    ['ending at midnight', ['monday', '23:00', 60], ['tuesday', '00:00', 30], false],
    ['Saturday night into Sunday morning', ['saturday', '23:30', 60], ['sunday', '00:00', 15], true],
  ] as const)('%s', (_case, [dayA, startA, lengthA], [dayB, startB, lengthB], expected) => {
    const a = { dayOfWeek: dayA, startTime: startA, duration: lengthA };
    const b = { dayOfWeek: dayB, startTime: startB, duration: lengthB };
    expect(overlapInWeek(a, b)).toBe(expected);
    expect(overlapInWeek(b, a)).toBe(expected);
  });

  it('is symmetric and agrees with counting shared minutes of the week', () => {
    const slot = fc.record({
      dayOfWeek: fc.constantFrom(...DAYS_OF_WEEK),
      start: fc.integer({ min: 0, max: 1439 }),
      duration: fc.integer({ min: 1, max: 1440 }),
    });
    const week = 7 * 1440;
    const minutes = (s: { dayOfWeek: string; start: number; duration: number }) => {
      const first = DAYS_OF_WEEK.indexOf(s.dayOfWeek as never) * 1440 + s.start;
      return new Set(Array.from({ length: s.duration }, (_, i) => (first + i) % week));
    };
    const hhmm = (m: number) =>
      `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    fc.assert(
      fc.property(slot, slot, (a, b) => {
        const ofB = minutes(b);
        const shared = [...minutes(a)].some((m) => ofB.has(m));
        const asEntry = (s: typeof a) => ({
          dayOfWeek: s.dayOfWeek,
          startTime: hhmm(s.start),
          duration: s.duration,
        });
        expect(overlapInWeek(asEntry(a), asEntry(b))).toBe(shared);
      }),
      { numRuns: 300 },
    );
  });
});

describe('weeklyOverlaps', () => {
  it('flags active programmes that overlap, and never an inactive one', () => {
    const overlaps = weeklyOverlaps([
      weekly({ title: 'A', startTime: '12:00', duration: 60 }),
      weekly({ title: 'B', startTime: '12:30', duration: 60 }),
      weekly({ title: 'C', startTime: '13:00', duration: 30 }),
      weekly({ title: 'Off', startTime: '12:00', duration: 120, isActive: 'false' }),
    ]);
    expect(Object.fromEntries(overlaps)).toEqual({ A: ['B'], B: ['A', 'C'], C: ['B'] });
  });
});

describe('clashesWith', () => {
  it('counts programmes from the day before that run past midnight, and the next morning', () => {
    const candidate = { ...weekly({ title: 'New' }), startTime: '23:30', duration: 60 };
    const late = { ...weekly({ title: 'Late', startTime: '23:00', duration: 90 }), dayOffset: -1 };
    const early = { ...weekly({ title: 'Early', startTime: '00:15', duration: 30 }), dayOffset: 1 };
    const noon = { ...weekly({ title: 'Noon' }), dayOffset: 0 };
    expect(clashesWith(candidate, [late, early, noon]).map((c) => c.title)).toEqual(['Early']);
    expect(clashesWith({ ...candidate, startTime: '00:00' }, [late]).map((c) => c.title)).toEqual(['Late']);
  });
});

it('names every programme overlapped', () => {
  expect(
    overlapMessage([
      { title: 'A', when: 'Monday 12:00–13:00' },
      { title: 'B', when: 'Monday 12:30–13:30' },
    ]),
  ).toBe(
    'This overlaps "A" (Monday 12:00–13:00) and "B" (Monday 12:30–13:30). Confirm the overlap to save it anyway.',
  );
});
