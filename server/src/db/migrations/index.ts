import * as m0001 from './0001_foundation.ts';
import * as m0002 from './0002_logs.ts';
import * as m0003 from './0003_sending.ts';

// Explicit list, in order: a new migration is one new file and one line here.
export const migrations = {
  '0001_foundation': m0001,
  '0002_logs': m0002,
  '0003_sending': m0003,
};
