import * as m0001 from './0001_foundation.ts';

// Explicit list, in order: a new migration is one new file and one line here.
export const migrations = {
  '0001_foundation': m0001,
};
