import { z } from 'zod';

export const DAYS_OF_WEEK = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;
export type DayOfWeek = (typeof DAYS_OF_WEEK)[number];

/** SPEC.md section 3: today's schedule item as the listener sees it. */
export const programSchema = z.object({
  id: z.string(),
  title: z.string(),
  startTime: z.string(),
  duration: z.union([z.number(), z.string()]),
  speaker: z.string().optional(),
  ministryFocus: z.string().optional(),
  description: z.string().nullable().optional(),
  status: z.string(),
  isCurrent: z.boolean(),
  isLive: z.boolean(),
  isFuture: z.boolean(),
});
export type Program = z.infer<typeof programSchema>;

/** Minutes since midnight of an 'HH:MM' start time. */
export const minutesOf = (startTime: string) => {
  const [h = '0', m = '0'] = startTime.split(':');
  return Number(h) * 60 + Number(m);
};
