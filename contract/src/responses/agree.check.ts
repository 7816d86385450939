import type { z } from 'zod';
import type { PayConfig } from '../payConfig.ts';
import type { SameShape } from './index.ts';
import type * as pay from './pay.ts';

// The contract types that are not their schema's z.output, held equal to it by `npm run typecheck`
// (nothing runs this file): a field added, dropped or retyped on one side only fails here.

export const answerChecks = [
  // responses/pay.ts builds payConfigRow from payConfig.ts's field lists, so payConfig.ts cannot import it back (no import cycles).
  true satisfies SameShape<z.output<typeof pay.payConfigRow>, PayConfig>,
];
