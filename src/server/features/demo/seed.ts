import { DAYS_OF_WEEK } from '../../../common/programs.js';
import type { Database } from '../../db/client.js';
import { addContent, markSampleContent } from '../featured-content/service.js';
import { addPrograms, markSamplePrograms } from '../programs/service.js';
import { once, ranOnce } from '../settings/service.js';

const SEEDED_KEY = 'demo_seeded';
/** Set once the demo rows of a station seeded before rows were marked are marked (or when seeded marked). */
const MARKED_KEY = 'demo_marked';

type Slot = {
  startTime: string;
  duration: number;
  title: string;
  speaker: string;
  ministryFocus: string;
  description: string;
};

const WEEKDAY: Slot[] = [
  {
    startTime: '06:00',
    duration: 60,
    title: 'Morning Praise',
    speaker: 'Worship Team',
    ministryFocus: 'Worship',
    description: 'Start the day with songs of praise and a word of encouragement.',
  },
  {
    startTime: '07:00',
    duration: 30,
    title: 'Daily Devotion',
    speaker: 'Pastor Ruth Adeyemi',
    ministryFocus: 'Discipleship',
    description: 'A short reading from Scripture and a prayer for the day ahead.',
  },
  {
    startTime: '09:00',
    duration: 120,
    title: 'Hymns & Heritage',
    speaker: 'Samuel Ortiz',
    ministryFocus: 'Music',
    description: 'Classic hymns and the stories behind them.',
  },
  {
    startTime: '12:00',
    duration: 60,
    title: 'Midday Word',
    speaker: 'Pastor James Whitfield',
    ministryFocus: 'Bible Teaching',
    description: 'Bible teaching through the books of the New Testament.',
  },
  {
    startTime: '15:00',
    duration: 60,
    title: 'Family Hour',
    speaker: 'Grace & Daniel Moore',
    ministryFocus: 'Family',
    description: 'Faith at home: marriage, parenting and everyday life.',
  },
  {
    startTime: '18:00',
    duration: 60,
    title: 'Evening Worship',
    speaker: 'Worship Team',
    ministryFocus: 'Worship',
    description: 'Contemporary worship to close the working day.',
  },
  {
    startTime: '21:00',
    duration: 60,
    title: 'Night Prayer',
    speaker: 'Prayer Ministry',
    ministryFocus: 'Prayer',
    description: 'Listeners\u2019 prayer requests lifted up together.',
  },
];

const WEEKEND: Slot[] = [
  {
    startTime: '08:00',
    duration: 60,
    title: 'Weekend Worship',
    speaker: 'Worship Team',
    ministryFocus: 'Worship',
    description: 'Songs of worship for a slower morning.',
  },
  {
    startTime: '10:00',
    duration: 90,
    title: 'Sunday Service',
    speaker: 'Pastor James Whitfield',
    ministryFocus: 'Preaching',
    description: 'The full Sunday service from our main campus.',
  },
  {
    startTime: '14:00',
    duration: 60,
    title: 'Youth Voices',
    speaker: 'Youth Ministry',
    ministryFocus: 'Youth',
    description: 'Young people share testimonies and new music.',
  },
  {
    startTime: '19:00',
    duration: 60,
    title: 'Gospel Classics',
    speaker: 'Samuel Ortiz',
    ministryFocus: 'Music',
    description: 'Gospel favourites from across the decades.',
  },
];

// No recordings come with the demo: its items are text only, so they offer no Play and claim no length.
const FEATURED = [
  {
    type: 'sermon',
    title: 'Walking in Faith',
    speaker: 'Pastor James Whitfield',
    description: 'What it means to trust God one step at a time, from Hebrews 11.',
  },
  {
    type: 'devotion',
    title: 'Morning Light',
    speaker: 'Pastor Ruth Adeyemi',
    description: 'A short devotion on Psalm 5: bringing the day to God before it begins.',
  },
  {
    type: 'music',
    title: 'Songs of Hope',
    speaker: 'Worship Team',
    description: 'A live worship set recorded at our Easter gathering.',
  },
  {
    type: 'announcement',
    title: 'Community Prayer Night',
    speaker: null,
    description: 'Join us every first Friday of the month for an evening of prayer, online and in person.',
  },
];

const week = () =>
  DAYS_OF_WEEK.flatMap((day) =>
    (day === 'saturday' || day === 'sunday' ? WEEKEND : WEEKDAY).map((slot) => ({ ...slot, dayOfWeek: day })),
  );

/**
 * Fills an empty station with a week of programmes and four featured items, once, each marked as sample so
 * staff see it badged and remove it in one click (service.ts). Once removed it never comes back.
 */
export async function seedDemoContent(db: Database): Promise<boolean> {
  return once(db, SEEDED_KEY, async (tx) => {
    await addPrograms(
      tx,
      week().map((slot) => ({ ...slot, sample: true })),
    );
    for (const item of FEATURED) await addContent(tx, item, true);
    // Marked already: a later start must not mark again an item staff saved unchanged (theirs by then).
    await once(tx, MARKED_KEY, async () => {});
  });
}

/**
 * A station seeded before sample rows were marked: the demo programmes and items staff never edited are
 * marked now, once, so the notice and the one-click removal reach them too.
 */
export async function markEarlierDemoContent(db: Database): Promise<number> {
  if (!(await ranOnce(db, SEEDED_KEY))) return 0;
  let marked = 0;
  await once(db, MARKED_KEY, async (tx) => {
    marked = (await markSamplePrograms(tx, week())) + (await markSampleContent(tx, FEATURED));
  });
  return marked;
}
