// GBK encoding for the fake Alipay's bill (Node decodes GBK but has no encoder): the table is made once
// by decoding every two-byte GBK code.

let table: Map<string, number[]> | undefined;

export function encodeGbk(text: string): Buffer {
  if (!table) {
    table = new Map();
    const decoder = new TextDecoder('gbk', { fatal: true });
    for (let lead = 0x81; lead <= 0xfe; lead++) {
      for (let trail = 0x40; trail <= 0xfe; trail++) {
        if (trail === 0x7f) continue;
        try {
          const ch = decoder.decode(new Uint8Array([lead, trail]));
          if (!table.has(ch)) table.set(ch, [lead, trail]);
        } catch {
          // not a GBK code
        }
      }
    }
  }
  const bytes: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) bytes.push(code);
    else bytes.push(...(table.get(ch) ?? [0x3f]));
  }
  return Buffer.from(bytes);
}
