import sharp from 'sharp';
import { expect, it } from 'vitest';
import { imageQueue, reencodeImage } from './image-processing.js';

const picture = (side: number) =>
  sharp({ create: { width: side, height: side, channels: 3, background: '#1e3a8a' } })
    .jpeg()
    .toBuffer();

it('re-encodes one picture at a time, in the order they came, with one libvips thread and no cache', async () => {
  const [large, small] = await Promise.all([picture(4000), picture(16)]);
  const finished: string[] = [];
  const inLine = (input: Buffer) => {
    const place = imageQueue.admit()!;
    return place.run(() => reencodeImage(input)).finally(place.leave);
  };
  const work = [
    inLine(large).then(() => finished.push('large')),
    inLine(small).then(() => finished.push('small')),
    inLine(Buffer.from('not a picture')).catch(() => finished.push('refused')),
    inLine(small).then(() => finished.push('small again')),
  ];
  expect(imageQueue.admitted).toBe(4);
  // The line holds one running and three waiting: a fifth is not let in.
  expect(imageQueue.admit()).toBeUndefined();
  await Promise.all(work);
  // Run side by side, the small picture would finish long before the large one.
  expect(finished).toEqual(['large', 'small', 'refused', 'small again']);
  expect(imageQueue.admitted).toBe(0);
  expect(sharp.concurrency()).toBe(1);
  expect(sharp.cache()).toMatchObject({ memory: { current: 0 }, items: { current: 0 } });
}, 60_000);
