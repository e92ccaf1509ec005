import { z } from 'zod';

/** What every page knows about the station; the server embeds it in the HTML it serves. */
export const stationInfoSchema = z.object({
  name: z.string(),
  networkName: z.string(),
  networkUrl: z.string(),
  timeZone: z.string(),
  /** The footer's and social band's addresses staff set; absent ones keep their defaults (page-meta.ts). */
  links: z
    .object({
      facebook: z.string().optional(),
      youtube: z.string().optional(),
      instagram: z.string().optional(),
      liveStream: z.string().optional(),
      privacy: z.string().optional(),
      terms: z.string().optional(),
      contactEmail: z.string().optional(),
    })
    .optional(),
});
export type StationInfo = z.infer<typeof stationInfoSchema>;

// Kept in a module without zod so the home page can use them without loading zod's runtime.
export { pageMeta, STATION_CONFIG_ELEMENT_ID, type StationLinks } from './page-meta.js';
