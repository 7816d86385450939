import { sql, type SelectQueryBuilder } from 'kysely';
import { shanghaiDayRange } from '@huiyun/contract';

/**
 * A list's day filter: `column` (epoch ms) from the first day's Asia/Shanghai midnight to before the
 * midnight after the last (the contract's shanghaiDayRange); a day left empty bounds nothing on its side.
 */
export function withinShanghaiDays<DB, TB extends keyof DB, O>(
  filtered: SelectQueryBuilder<DB, TB, O>,
  column: string,
  firstDay: string,
  lastDay: string,
): SelectQueryBuilder<DB, TB, O> {
  const { from, before } = shanghaiDayRange(firstDay, lastDay);
  let within = filtered;
  if (from !== undefined) within = within.where(sql.ref(column), '>=', from);
  if (before !== undefined) within = within.where(sql.ref(column), '<', before);
  return within;
}
