import { z } from 'zod';

// The product's one answer shape (envelope.ts `Envelope`, PRODUCT §2) as a zod schema: the OpenAPI
// document (server/src/modules/api-docs) describes it once, each route's `data` beside it. Here, not in
// envelope.ts: list screens import envelope.ts and must not load zod.

export const answerEnvelope = z.object({
  success: z.boolean(),
  /** The Chinese message; errorInfo carries the same text. */
  msg: z.string(),
  errorInfo: z.string(),
  /** What the route answers; absent when the message is all. */
  data: z.unknown().optional(),
  /** A list's row count (bounded: see totalBounded). */
  total: z.number().int().optional(),
  /** The count stopped at a bound: total is the bound + 1 (共 10,000+ 条). */
  totalBounded: z.literal(true).optional(),
  /** A full list page: where the next page starts, sent back as `after` (keyset paging). */
  next: z.string().optional(),
});

/** A refusal: success false and the Chinese message (400 bad input, 401 not signed in, 403 not allowed …). */
export const answerFailure = z.object({
  success: z.literal(false),
  msg: z.string(),
  errorInfo: z.string(),
  /** Only the readiness probe's 503 carries data: the state of each dependency. */
  data: z.unknown().optional(),
});

/** `{ <name>: <new or saved id> }`, the data of a console save. */
export const savedId = <K extends string>(key: K) => z.object({ [key]: z.number().int() } as Record<K, z.ZodNumber>);

/** Text columns named by a contract list (pay config's fields): the schema follows the list. */
export const textColumns = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((key) => [key, z.string()])) as Record<K, z.ZodString>;

export const id = z.number().int();
/** 'YYYY-MM-DD HH:mm:ss' Asia/Shanghai ('' where the column says so). */
export const time = z.string();
/** Yuan, two decimals, as text. */
export const yuan = z.string();
