// Which encoding a number file is in, decided once per file (number-file.ts drives the stages):
//   1. The first 512 bytes are looked at: a BOM (UTF-8 EF BB BF, UTF-16LE FF FE, UTF-16BE FE FF) decides;
//      else NUL bytes on one side of most byte pairs mean BOM-less UTF-16 (Notepad's "Unicode"), NULs on
//      odd offsets LE, on even offsets BE.
//   2. Otherwise the file is ASCII-compatible and ASCII reads the same in UTF-8 and GBK, so the decision
//      waits for the first byte ≥ 0x80: the 4 KB from there on are checked as UTF-8; valid → UTF-8, not
//      → GBK (the WHATWG 'gbk' decoder, i.e. GB18030, a superset). A file with no such byte is UTF-8.
//   Bytes the chosen decoder cannot read become U+FFFD and so make their token invalid, counted.
import type { NumberFileEncoding } from './number-scanner.ts';

/** Bytes looked at for a BOM or UTF-16's NULs. */
export const SNIFF_BYTES = 512;
/** Bytes from the first byte ≥ 0x80 on that decide UTF-8 or GBK. */
export const UTF8_CHECK_BYTES = 4096;

/** A BOM, or BOM-less UTF-16 told by where its NUL bytes fall; null when neither. */
export function detectUnicodeEncoding(head: Uint8Array): NumberFileEncoding | null {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  const pairs = head.length >> 1;
  let evenNuls = 0;
  let oddNuls = 0;
  for (let i = 0; i + 1 < head.length; i += 2) {
    if (head[i] === 0) evenNuls += 1;
    if (head[i + 1] === 0) oddNuls += 1;
  }
  // Digits, separators and Latin text in UTF-16 have a NUL in every pair; UTF-8 and GBK text none.
  if (oddNuls * 4 > pairs && oddNuls > evenNuls * 2) return 'utf-16le';
  if (evenNuls * 4 > pairs && evenNuls > oddNuls * 2) return 'utf-16be';
  return null;
}

/** UTF-8 when `window` (from the first byte ≥ 0x80) is valid UTF-8, else GBK. */
export function utf8OrGbk(window: Uint8Array, atEnd: boolean): 'utf-8' | 'gbk' {
  try {
    // stream mode unless at the end: a character cut by the window's edge is not an error
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(window, { stream: !atEnd });
    return 'utf-8';
  } catch {
    return 'gbk';
  }
}
