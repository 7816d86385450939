import type { Kysely } from 'kysely';
import { DEFAULT_UNSUBSCRIBE_KEYWORDS, parseUnsubscribeKeywords, UNSUBSCRIBE_KEYWORDS_VARIABLE } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';

/**
 * The 退订 keywords as 系统环境变量 holds them now (read per upload: replies are few, and an edit takes
 * effect at once on every server instance); the default when the variable was deleted.
 */
export async function unsubscribeKeywords(db: Kysely<Database>): Promise<Set<string>> {
  const row = await db.selectFrom('sys_variable').select('varValue').where('varName', '=', UNSUBSCRIBE_KEYWORDS_VARIABLE).executeTakeFirst();
  return parseUnsubscribeKeywords(row?.varValue ?? DEFAULT_UNSUBSCRIBE_KEYWORDS);
}
