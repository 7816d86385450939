// Money (PRODUCT §5): integer fen in storage, yuan with at most two decimals in the API and on screen.
// Conversions work on the digits as text, never through floating point (0.1 + 0.2 is not 0.3).

/** A yuan amount as typed: whole yuan (up to 7 digits), optionally a point and one or two decimals. */
export const YUAN_PATTERN = /^\d{1,7}(\.\d{1,2})?$/;

/** The largest amount yuanToFen accepts, in fen (9,999,999.99 yuan): far below an integer column's limit. */
export const MAX_FEN = 999_999_999;

/**
 * '12' → 1200, '12.5' → 1250, '0.01' → 1; a number is read as its shortest decimal text (12.5 → '12.5').
 * undefined for anything else: a negative, more than two decimals (1.234), exponents, empty text.
 */
export function yuanToFen(yuan: string | number): number | undefined {
  const text = typeof yuan === 'number' ? (Number.isFinite(yuan) ? String(yuan) : '') : yuan.trim();
  if (!YUAN_PATTERN.test(text)) return undefined;
  const [whole, decimals = ''] = text.split('.');
  return Number(whole) * 100 + Number(decimals.padEnd(2, '0'));
}

/** 1250 → '12.50', 1 → '0.01', -300 → '-3.00'; the fen must be a whole number. */
export function fenToYuan(fen: number): string {
  if (!Number.isSafeInteger(fen)) throw new RangeError(`fen must be a whole number, got ${fen}`);
  const sign = fen < 0 ? '-' : '';
  const digits = String(Math.abs(fen)).padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** An amount on screen: ¥ and the yuan text the API sends ('3.50' → '¥3.50', '-1.50' → '¥-1.50'), never a float on the way. */
export const yuanShown = (yuan: string): string => `¥${yuan}`;
