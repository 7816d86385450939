import type { z } from 'zod';
import type * as r from '@huiyun/contract/responses';
import type { deleteFromBlacklist } from '../../sending/blacklist/index.ts';
import type { recordDeliveries, recordHeartbeat } from '../../sending/devices/index.ts';
import type { createAisleGrid, saveAisle, saveMachine } from '../../pay/machines/index.ts';
import type { generateQrImage, ImportResult } from '../../sending/tasks/index.ts';
import type { heartbeat } from '../../pay/terminal/index.ts';

// The answers the contract has no type of its own for (the routes' docs name their schemas) agree with
// what the server's functions return, checked by `npm run typecheck` (nothing runs this file); the
// others are the contract's types themselves (each entity type is its schema's z.output).

type Returned<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
type Saved = Returned<typeof saveMachine>;

// Not derived, each of them: a route's doc names its answer schema but does not type its handler (Fastify
// types what a handler returns as unknown), so what the server function returns is held to the schema here.
export const serverAnswerChecks = [
  true satisfies r.SameShape<Returned<typeof saveAisle>, z.output<typeof r.aisleSaved>>,
  true satisfies r.SameShape<Returned<typeof createAisleGrid>, z.output<typeof r.aisleGridCreated>>,
  // /api/Machine/save answers `saved.created ?? { machineId }`
  true satisfies r.SameShape<NonNullable<Saved['created']> | Pick<Saved, 'machineId'>, z.output<typeof r.machineSaved>>,
  // /sync/deleteBlacklist answers `{ count }`
  true satisfies r.SameShape<{ count: Returned<typeof deleteFromBlacklist> }, z.output<typeof r.blacklistDeleted>>,
  true satisfies r.SameShape<Returned<typeof generateQrImage>, z.output<typeof r.qrImagePath>>,
  true satisfies r.SameShape<Omit<ImportResult, 'encoding'>, z.output<typeof r.uploadTaskDataResult>>,
  true satisfies r.SameShape<Returned<typeof recordHeartbeat>, z.output<typeof r.deviceHeartbeatAnswer>>,
  true satisfies r.SameShape<Returned<typeof recordDeliveries>, z.output<typeof r.deviceDeliveryResult>>,
  true satisfies r.SameShape<Returned<typeof heartbeat>, z.output<typeof r.terminalHeartbeatAnswer>>,
];
