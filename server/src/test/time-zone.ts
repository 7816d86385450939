import { afterAll } from 'vitest';

/**
 * Runs the calling test file in time zone `zone` and puts the worker's back after it (the workers run file after
 * file in one process: a zone left set would be every later file's).
 */
export function inTimeZone(zone: string): void {
  const before = process.env.TZ;
  process.env.TZ = zone;
  afterAll(() => {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  });
}
