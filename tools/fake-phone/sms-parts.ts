// How Android splits a text into SMS parts (SmsManager.divideMessage): GSM 7-bit text fits 160 septets in one
// part, 153 per part when split (the rest is the concatenation header); any other character (Chinese, emoji)
// makes the whole text UCS-2: 70 UTF-16 units in one part, 67 per part when split. An extension character
// (€, [, ], {, }, ~, ^, |, \) takes two septets and is never cut in half.

const GSM_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '\f^{}\\[~]|€';

const septets = (ch: string) => (GSM_BASIC.includes(ch) ? 1 : GSM_EXTENSION.includes(ch) ? 2 : 0);

export const isGsmText = (text: string) => [...text].every((ch) => septets(ch) > 0);

/** The parts a text is sent as (at least one, even for an empty text). */
export function smsParts(text: string): string[] {
  if (isGsmText(text)) {
    const chars = [...text];
    const total = chars.reduce((sum, ch) => sum + septets(ch), 0);
    if (total <= 160) return [text];
    return cut(chars, 153, septets);
  }
  // UCS-2 counts UTF-16 units; a surrogate pair stays in one part
  if (text.length <= 70) return [text];
  return cut([...text], 67, (ch) => ch.length);
}

function cut(chars: string[], size: number, weight: (ch: string) => number): string[] {
  const parts: string[] = [];
  let part = '';
  let used = 0;
  for (const ch of chars) {
    const w = weight(ch);
    if (used + w > size) {
      parts.push(part);
      part = '';
      used = 0;
    }
    part += ch;
    used += w;
  }
  parts.push(part);
  return parts;
}
