/** True for a unique-index violation on either database (SQLite: SQLITE_CONSTRAINT_UNIQUE, PostgreSQL: 23505). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errcode?: number; message?: string };
  return e?.code === '23505' || e?.errcode === 2067 || e?.errcode === 1555 || /UNIQUE constraint failed/.test(e?.message ?? '');
}
