/**
 * A refusal with a Chinese message for the caller, thrown by any server layer (db code refuses rows
 * outside the caller's scope, modules refuse their own cases); http/error-handler.ts answers it with
 * its status, and http/errors.ts builds the common ones. Anything else thrown is a bug: logged, never sent.
 */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(message: string, statusCode = 400) {
    super(message);
    this.statusCode = statusCode;
  }
}

/** True for a unique-index violation on either database (SQLite: SQLITE_CONSTRAINT_UNIQUE, PostgreSQL: 23505). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errcode?: number; message?: string };
  return e?.code === '23505' || e?.errcode === 2067 || e?.errcode === 1555 || /UNIQUE constraint failed/.test(e?.message ?? '');
}
