import type { Envelope } from '@huiyun/contract';

export function ok<T>(msg = '', data?: T, total?: number): Envelope<T> {
  const body: Envelope<T> = { success: true, msg, errorInfo: msg };
  if (data !== undefined) body.data = data;
  if (total !== undefined) body.total = total;
  return body;
}

export function page<T>(rows: T[], total: number): Envelope<T[]> {
  return ok('', rows, total);
}

export function fail(msg: string): Envelope<never> {
  return { success: false, msg, errorInfo: msg };
}
