import type { TestProject } from 'vitest/node';
import { startStation } from './station';

declare module 'vitest' {
  export interface ProvidedContext {
    stationUrl: string;
  }
}

/** One station for the specs that only read; specs that restart or reconfigure start their own. */
export default async function setup(project: TestProject) {
  const station = await startStation();
  project.provide('stationUrl', station.url);
  return () => station.stop();
}
