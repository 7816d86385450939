/** True for a check-constraint violation on either database (SQLite: SQLITE_CONSTRAINT_CHECK 275, PostgreSQL: 23514). */
export function isCheckViolation(error: unknown): boolean {
  const e = error as { code?: string; errcode?: number; message?: string };
  return e?.code === '23514' || e?.errcode === 275 || /CHECK constraint failed/.test(e?.message ?? '');
}
