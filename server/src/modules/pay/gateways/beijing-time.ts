import { yuanToFen } from '@huiyun/contract';

// The gateways speak Beijing time (UTC+8, no daylight saving) and yuan text, whatever the server's TZ:
// these conversions never read the process's time zone and never go through floating point.

const BEIJING_OFFSET_MS = 8 * 3_600_000;

/** epoch ms → 'YYYY-MM-DD HH:mm:ss' Beijing time. */
export function beijingDateTime(ms: number): string {
  return new Date(ms + BEIJING_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** epoch ms → RFC 3339 with +08:00 (WeChat APIv3). */
export function beijingRfc3339(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000 + BEIJING_OFFSET_MS).toISOString().slice(0, 19)}+08:00`;
}

/** 'YYYY-MM-DD HH:mm:ss' (or 'YYYYMMDDHHmmss') Beijing time → epoch ms; NaN when not such a text. */
export function parseBeijingDateTime(text: string): number {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})[ T]?(\d{2}):?(\d{2}):?(\d{2})$/.exec(text.trim());
  if (!m) return Number.NaN;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) - BEIJING_OFFSET_MS;
}

/** A gateway's yuan text ('0.10', '-3.00') → positive integer fen; throws on anything else (a corrupt answer or bill). */
export function yuanTextToFen(text: string): number {
  const fen = yuanToFen(text.trim().replace(/^-/, ''));
  if (fen === undefined) throw new RangeError(`not a yuan amount: ${JSON.stringify(text.slice(0, 32))}`);
  return fen;
}
