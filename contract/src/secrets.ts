// How a stored secret (payment keys, terminal keys) is shown: never in clear. A value sent back equal
// to its mask means "unchanged" — the server keeps the stored secret (PRODUCT.md §5).
export const SECRET_MASK = '******';

/** First 4 + ****** + last 4 for values of 12 characters or more; shorter: ****** + last 3; under 6: ******. */
export function maskSecret(clear: string): string {
  if (clear.length >= 12) return `${clear.slice(0, 4)}${SECRET_MASK}${clear.slice(-4)}`;
  if (clear.length >= 6) return `${SECRET_MASK}${clear.slice(-3)}`;
  return SECRET_MASK;
}

/** True when a value sent on save is the mask of the stored secret: keep the stored one. */
export function isMaskOf(sent: string, storedClear: string): boolean {
  return sent === maskSecret(storedClear);
}
