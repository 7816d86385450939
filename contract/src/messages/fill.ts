/** Replaces `{name}` placeholders: fill(user.forceOfflineOk, { userName: 'admin' }). */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}
