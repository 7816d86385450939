// A list's cursor: where the page after a page starts (its last row's sort value and key).

/**
 * Where the page after a page starts: its last row's sort value and key, with the page's number and sort.
 * Handed out with a full page (`next`), taken back as `after` with the next page's number: that page is
 * then read from the sort index at that row (keyset) instead of walking every row before it. A cursor of
 * another page or sort, or one that does not read, is ignored (the page is read by its offset).
 */
export type Cursor = { page: number; sort: string; key: [CursorValue, CursorValue] };

export type CursorValue = string | number;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.page, cursor.sort, ...cursor.key])).toString('base64url');
}

export function decodeCursor(text: string | undefined): Cursor | undefined {
  if (!text) return undefined;
  try {
    const parts: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(parts) || parts.length !== 4) return undefined;
    const [page, sort, value, key] = parts as unknown[];
    if (!Number.isSafeInteger(page) || typeof sort !== 'string' || !isCursorValue(value) || !isCursorValue(key)) return undefined;
    return { page: page as number, sort, key: [value, key] };
  } catch {
    return undefined;
  }
}

export const isCursorValue = (value: unknown): value is CursorValue => Number.isSafeInteger(value) || (typeof value === 'string' && value.length <= 200);
