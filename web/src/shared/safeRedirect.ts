/** A same-site path to return to after login, or null (refuses other origins). */
export function safeRedirect(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (value === '/' || value.startsWith('/login')) return null;
  return value;
}
