import type { z } from 'zod';
import { messages } from '@huiyun/contract';
import { AppError } from './errors.ts';

/** Parses input against a contract schema; the first issue's Chinese message becomes the answer. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  // Zod's own English text only appears for shapes the schema did not give a message for.
  const message = issue && /[\u4e00-\u9fa5]/.test(issue.message) ? issue.message : messages.common.badParameter;
  throw new AppError(message, 400);
}
