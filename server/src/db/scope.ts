import { sql, type Expression, type SqlBool } from 'kysely';
import { messages } from '@huiyun/contract';
import { AppError } from './errors.ts';

/**
 * Data scope (PRODUCT §3): the companies a caller may see. The super administrator sees all; a
 * company administrator its own company plus those its data-permission tree grants (用户 → 数据权限);
 * anyone else its own company. Always a typed condition, never spliced SQL.
 */
export type DeptScope = 'all' | number[];

/** `column` (a company id) lies in the scope: a condition for `.where(…)` (also callable as a factory). */
export function inDeptScope(column: string, scope: DeptScope): (eb?: unknown) => Expression<SqlBool> {
  return () => {
    if (scope === 'all') return sql<SqlBool>`1 = 1`;
    if (scope.length === 0) return sql<SqlBool>`1 = 0`;
    return sql<SqlBool>`${sql.ref(column)} in (${sql.join(scope)})`;
  };
}

export function deptInScope(scope: DeptScope, deptId: number | null | undefined): boolean {
  return scope === 'all' || (deptId != null && scope.includes(deptId));
}

/** Refuses (403), changing nothing, when the row's company lies outside the caller's scope. */
export function assertDeptInScope(scope: DeptScope, deptId: number | null | undefined, message: string = messages.common.outOfScope): void {
  if (!deptInScope(scope, deptId)) throw new AppError(message, 403);
}
