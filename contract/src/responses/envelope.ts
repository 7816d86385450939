import { z } from 'zod';

// The product's one answer shape (envelope.ts `Envelope`, PRODUCT §2) as a zod schema: the OpenAPI
// document (server/src/modules/platform/api-docs) describes it once, each route's `data` beside it. Here, not in
// envelope.ts: list screens import envelope.ts and must not load zod.

export const answerEnvelope = z
  .object({
    success: z.boolean(),
    msg: z.string().describe('中文提示；errorInfo 与它相同'),
    errorInfo: z.string(),
    data: z.unknown().optional().describe('该接口的应答数据（见各接口）；只有提示时没有'),
    total: z.number().int().optional().describe('列表的总条数'),
    totalBounded: z.literal(true).optional().describe('计数到上限为止：total 为上限 + 1（共 10,000+ 条）'),
    next: z.string().optional().describe('满页时下一页的起点，作为 after 传回（键集分页）'),
  })
  .describe('统一应答信封（PRODUCT §2）：每个 JSON 接口都这样应答');

export const answerFailure = z
  .object({
    success: z.literal(false),
    msg: z.string().describe('中文的拒绝原因'),
    errorInfo: z.string(),
    data: z.unknown().optional().describe('只有就绪检查（/healthz）的 503 带：各依赖的状态'),
  })
  .describe('拒绝：success 为 false，msg 为中文原因，HTTP 状态说明类别');

/** `{ <name>: <new or saved id> }`, the data of a console save. */
export const savedId = <K extends string>(key: K) => z.object({ [key]: z.number().int() } as Record<K, z.ZodNumber>);

/** Text columns named by a contract list (pay config's fields): the schema follows the list. */
export const textColumns = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((key) => [key, z.string()])) as Record<K, z.ZodString>;

export const id = z.number().int();
/** 'YYYY-MM-DD HH:mm:ss' Asia/Shanghai ('' where the column says so). */
export const time = z.string().describe('北京时间 YYYY-MM-DD HH:mm:ss（没有时为空串）');
/** Yuan, two decimals, as text. */
export const yuan = z.string().describe('金额：元，两位小数的文本');
/** An instant as epoch milliseconds (the protocols' times). */
export const epochMs = z.number().describe('时间戳（毫秒）');
