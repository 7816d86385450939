import { sql, type Expression, type SqlBool } from 'kysely';
import { messages } from '@huiyun/contract';
import { AppError } from './errors.ts';

/**
 * Data scope (PRODUCT §3): the companies a caller may see. The super administrator sees all; a
 * company administrator its own company plus those its data-permission tree grants (用户 → 数据权限);
 * anyone else its own company. Always a typed condition, never spliced SQL.
 */
export type DeptScope = 'all' | number[];

const everyCompany = sql<SqlBool>`1 = 1`;
const noCompany = sql<SqlBool>`1 = 0`;

/**
 * `column` (a company id) lies in the scope: a condition for `.where(…)`. An expression, not a factory:
 * Kysely makes a whole expression builder for each factory it calls (~14 µs of a list request's CPU).
 */
export function inDeptScope(column: string, scope: DeptScope): Expression<SqlBool> {
  if (scope === 'all') return everyCompany;
  if (scope.length === 0) return noCompany;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join(scope)})`;
}

export function deptInScope(scope: DeptScope, deptId: number | null | undefined): boolean {
  return scope === 'all' || (deptId != null && scope.includes(deptId));
}

/** Refuses (403), changing nothing, when the row's company lies outside the caller's scope. */
export function assertDeptInScope(scope: DeptScope, deptId: number | null | undefined, message: string = messages.common.outOfScope): void {
  if (!deptInScope(scope, deptId)) throw new AppError(message, 403);
}
