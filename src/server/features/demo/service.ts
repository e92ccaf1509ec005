import type { SampleContent } from '../../../common/sample-content.js';
import type { Database } from '../../db/client.js';
import { countSampleContent, removeSampleContent } from '../featured-content/service.js';
import { countSamplePrograms, removeSamplePrograms } from '../programs/service.js';

export { markEarlierDemoContent, seedDemoContent } from './seed.js';

/** What is left of the sample content a fresh station came with (items staff edited are theirs, not counted). */
export async function sampleContent(db: Database): Promise<SampleContent> {
  const [programs, featured] = await Promise.all([countSamplePrograms(db), countSampleContent(db)]);
  return { programs, featured };
}

/**
 * Removes the sample programmes and featured items in one transaction; staff's own content and what they
 * edited stay. Asked again, it removes nothing and says so. The AutoDJ is untouched: the sample airs nothing
 * of its own (its programmes let the rotation play), and the test transmission is the station's, not sample.
 */
export async function removeSample(db: Database): Promise<SampleContent> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    return { programs: await removeSamplePrograms(t), featured: await removeSampleContent(t) };
  });
}
