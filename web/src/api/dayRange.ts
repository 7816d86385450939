/** A search form's 时间范围: one field holding both days ('YYYY-MM-DD'), or none. */
export type DayRange = { dateRange?: [string, string] };

/**
 * A list's request body from its search form: the one 时间范围 field as the two the server takes —
 * `start` / `end` (交易订单, 支付告警), or the names a list gives (the logs' beginTime / endTime).
 */
export function withDays<P extends DayRange, From extends string = 'start', To extends string = 'end'>(
  { dateRange, ...rest }: P,
  from = 'start' as From,
  to = 'end' as To,
): Omit<P, 'dateRange'> & Record<From | To, string> {
  return { ...rest, [from]: dateRange?.[0] ?? '', [to]: dateRange?.[1] ?? '' } as Omit<P, 'dateRange'> & Record<From | To, string>;
}
