import { z } from 'zod';

/** What every page knows about the station; the server embeds it in the HTML it serves. */
export const stationInfoSchema = z.object({
  name: z.string(),
  networkName: z.string(),
  networkUrl: z.string(),
  timeZone: z.string(),
});
export type StationInfo = z.infer<typeof stationInfoSchema>;

// Kept in a module without zod so the home page can use them without loading zod's runtime.
export { pageMeta, STATION_CONFIG_ELEMENT_ID } from './page-meta.js';
