import { z } from 'zod';
import { payConfigCheck as m } from './messages.ts';
import { idOf } from './fields.ts';
import type * as payAnswers from './responses/pay.ts';

// 支付配置 → 检测: the request names a saved config; the answer says what one harmless signed call with its keys
// proved, check by check, each failure naming the field to fix. The answer's shape is responses/pay.ts
// payConfigCheckAnswer (PayConfigCheckResult is its z.output).

export const payConfigCheckRequest = z.object({ id: idOf(m.configRequired) });
export type PayConfigCheckRequest = z.infer<typeof payConfigCheckRequest>;

/** One thing 检测 proved or found wrong: its name (请求签名, 应答验签, API证书 …) and a sentence. */
export type PayConfigCheckItem = { name: string; ok: boolean; message: string };

/** ok: every check passed; message: the one sentence shown (what was proved, or the first thing to fix). */
export type PayConfigCheckResult = z.output<typeof payAnswers.payConfigCheckAnswer>;
