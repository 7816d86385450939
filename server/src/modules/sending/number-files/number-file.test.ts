import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Carrier, classifyCarrier } from '@huiyun/contract';
import { NumberFileParser, parseNumberFile, scanNumberText, type NumberFileOptions } from './number-file.ts';
import type { NumberFileSummary } from './number-scanner.ts';

type Parsed = { numbers: number[]; carriers: number[]; batchSizes: number[]; summary: NumberFileSummary };

function parseWhole(bytes: Uint8Array, chunkSize = bytes.length || 1, options?: NumberFileOptions): Parsed {
  const out: Parsed = { numbers: [], carriers: [], batchSizes: [], summary: undefined as unknown as NumberFileSummary };
  const parser = new NumberFileParser((batch) => {
    expect(batch.carriers.length).toBe(batch.numbers.length);
    out.numbers.push(...batch.numbers);
    out.carriers.push(...batch.carriers);
    out.batchSizes.push(batch.numbers.length);
  }, options);
  for (let i = 0; i < bytes.length; i += chunkSize) parser.write(bytes.subarray(i, i + chunkSize));
  out.summary = parser.end();
  return out;
}

/** Parses whole and in 1, 2, 3 and 7-byte chunks (cutting characters and numbers): all must agree. */
function parse(input: string | Uint8Array, options?: NumberFileOptions): Parsed {
  const bytes = typeof input === 'string' ? Buffer.from(input) : input;
  const whole = parseWhole(bytes, undefined, options);
  for (const size of [1, 2, 3, 7]) expect(parseWhole(bytes, size, options)).toEqual(whole);
  return whole;
}

const gbk = (...codes: number[]) => Buffer.from(codes);
const gbkZhangSan = gbk(0xd5, 0xc5, 0xc8, 0xfd);
const gbkLiSi = gbk(0xc0, 0xee, 0xcb, 0xc4);
const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();

describe('number file: one field at a time', () => {
  // [what the operator typed, numbers read, invalid tokens]
  const table: [string, number[], number][] = [
    ['13800138000', [13800138000], 0],
    ['  13800138000  ', [13800138000], 0],
    ['138 0013 8000', [13800138000], 0],
    ['138-0013-8000', [13800138000], 0],
    ['(138) 0013-8000', [13800138000], 0],
    ['（138）0013－8000', [13800138000], 0],
    ['+8613800138000', [13800138000], 0],
    ['+86 138 0013 8000', [13800138000], 0],
    ['+86-138-0013-8000', [13800138000], 0],
    ['＋86 13800138000', [13800138000], 0],
    ['8613800138000', [13800138000], 0],
    ['86 13800138000', [13800138000], 0],
    ['008613800138000', [13800138000], 0],
    ['0086 138 0013 8000', [13800138000], 0],
    ['１３８００１３８０００', [13800138000], 0],
    ['19912345678', [19912345678], 0],
    ['1380013800', [], 1], // 10 digits
    ['138001380001', [], 1], // 12 digits
    ['12800138000', [], 1], // second digit 2
    ['01380013800', [], 1],
    ['8612800138000', [], 1], // 86 + an invalid number
    ['+013800138000', [], 1],
    ['+008613800138000', [], 1],
    ['86138001380001', [], 1],
    ['1380013800a', [], 1],
    ['1380O138000', [], 1], // letter O
    ['abc', [], 1],
    ['13800138000+', [], 1],
    ['+86+13800138000', [], 1],
    ['138 0013 800', [], 1], // rule 3: one invalid token, not three
    ['+1 415 555 0100', [], 1],
    ['张 三', [], 1],
    ['13800138000 13900139000', [13800138000, 13900139000], 0], // rule 2
    ['张三 13800138000', [13800138000], 1],
    ['13800138000 abc def', [13800138000], 2],
    ['12 13800138000', [13800138000], 1], // joined '1213800138000' is not a number: pieces count
    ['138 0013 8000 13900139000', [13900139000], 3], // ambiguous grouping beside a number: pieces count
    ['13800138000,13900139000', [13800138000, 13900139000], 0],
    ['13800138000，13900139000', [13800138000, 13900139000], 0],
    ['13800138000;13900139000', [13800138000, 13900139000], 0],
    ['13800138000；13900139000', [13800138000, 13900139000], 0],
    ['13800138000\t13900139000', [13800138000, 13900139000], 0],
    ['138 0013 8000, 139-0013-9000', [13800138000, 13900139000], 0],
    ['13800138000,,abc,', [13800138000], 1],
    ['', [], 0],
    ['   ', [], 0],
    ['---', [], 0],
    ['( )', [], 0],
  ];
  for (const [line, numbers, invalid] of table) {
    it(`'${line}' → ${numbers.length} valid, ${invalid} invalid`, () => {
      const { numbers: read, summary } = parse(line);
      expect(read).toEqual(numbers);
      expect(summary.valid).toBe(numbers.length);
      expect(summary.invalid).toBe(invalid);
      expect(summary.duplicatesInFile).toBe(0);
    });
  }
});

describe('number file: lines, duplicates, carriers, batches', () => {
  it('reads LF, CRLF and CR endings and skips blank lines without counting them', () => {
    const { numbers, summary } = parse('13800138000\r\n\r\n13900139000\r13700137000\n\n\r\n  \n15000150000');
    expect(numbers).toEqual([13800138000, 13900139000, 13700137000, 15000150000]);
    expect(summary.invalid).toBe(0);
  });

  it('reports invalid tokens with the line the operator sees', () => {
    const { summary } = parse('abc\r\n13800138000\r\n\r\nx y\rz\n\nq,13900139000，w');
    expect(summary.invalidSamples).toEqual([
      { line: 1, text: 'abc' },
      { line: 4, text: 'x y' },
      { line: 5, text: 'z' },
      { line: 7, text: 'q' },
      { line: 7, text: 'w' },
    ]);
    expect(summary.invalid).toBe(5);
  });

  it('counts every invalid token but keeps 20 samples, cut to 40 characters', () => {
    const junk = Array.from({ length: 25 }, (_, i) => `junk${i}`).join('\n');
    const { summary } = parse(`${'x'.repeat(100)}\n${junk}`);
    expect(summary.invalid).toBe(26);
    expect(summary.invalidSamples).toHaveLength(20);
    expect(summary.invalidSamples[0]).toEqual({ line: 1, text: `${'x'.repeat(40)}…` });
    expect(summary.invalidSamples[19]).toEqual({ line: 20, text: 'junk18' });
  });

  it('holds at most the samples it keeps for a long line of junk words, whatever follows', () => {
    const words = Array.from({ length: 10_000 }, (_, i) => `w${i}`).join(' ');
    const withNumber = parseWhole(Buffer.from(`${words} 13800138000`), 4096);
    expect(withNumber.summary).toMatchObject({ valid: 1, invalid: 10_000 });
    expect(withNumber.summary.invalidSamples.map((s) => s.text).slice(0, 3)).toEqual(['w0', 'w1', 'w2']);
    expect(withNumber.summary.invalidSamples).toHaveLength(20);
    const alone = parseWhole(Buffer.from(words), 4096);
    expect(alone.summary).toMatchObject({ valid: 0, invalid: 1, invalidSamples: [{ line: 1, text: `${words.slice(0, 40)}…` }] });
  });

  it('reads a file of only junk as nothing valid, every token counted', () => {
    const { numbers, batchSizes, summary } = parse('abc\n1234567890\n\n姓名,电话\n+1 (415) 555-0100\n');
    expect(numbers).toEqual([]);
    expect(batchSizes).toEqual([]);
    expect(summary).toMatchObject({ valid: 0, invalid: 5, duplicatesInFile: 0, byCarrier: { mobile: 0, unicom: 0, telecom: 0, other: 0 } });
  });

  it('keeps the first of repeated numbers, however written, and counts the rest', () => {
    const { numbers, summary } = parse('13800138000\n+86 138 0013 8000\n13900139000\n138-0013-8000,8613800138000\n13900139000');
    expect(numbers).toEqual([13800138000, 13900139000]);
    expect(summary).toMatchObject({ valid: 2, duplicatesInFile: 4, invalid: 0 });
  });

  it('classifies each number and totals per carrier', () => {
    const text = ['13800138000', '13000130000', '13300133000', '19200192000', '17400000000', '17406000000', '17030000000', '13490000000'].join('\n');
    const { numbers, carriers, summary } = parse(text);
    expect(carriers).toEqual(numbers.map((n) => classifyCarrier(String(n))));
    expect(carriers).toEqual([Carrier.mobile, Carrier.unicom, Carrier.telecom, Carrier.other, Carrier.telecom, Carrier.other, Carrier.mobile, Carrier.other]);
    expect(summary.byCarrier).toEqual({ mobile: 2, unicom: 1, telecom: 2, other: 3 });
  });

  it('cuts distinct numbers into batches of the asked size', () => {
    const text = ['13800000001', '13800000002', '13800000001', '13800000003', 'x', '13800000004', '13800000005'].join('\n');
    const { numbers, batchSizes } = parse(text, { batchSize: 2 });
    expect(batchSizes).toEqual([2, 2, 1]);
    expect(numbers).toEqual([13800000001, 13800000002, 13800000003, 13800000004, 13800000005]);
  });
});

describe('number file: encodings', () => {
  const text = '张三 13800138000\r\n李四,139-0013-9000\r\n\r\n+86 130 0013 0000\r\n';
  const expected = { numbers: [13800138000, 13900139000, 13000130000], invalid: 2, samples: [{ line: 1, text: '张三' }, { line: 2, text: '李四' }] };

  const files: [string, Buffer, string][] = [
    ['UTF-8', Buffer.from(text), 'utf-8'],
    ['UTF-8 with BOM', Buffer.concat([gbk(0xef, 0xbb, 0xbf), Buffer.from(text)]), 'utf-8'],
    ['UTF-16LE with BOM', Buffer.concat([gbk(0xff, 0xfe), Buffer.from(text, 'utf16le')]), 'utf-16le'],
    ['UTF-16BE with BOM', Buffer.concat([gbk(0xfe, 0xff), utf16be(text)]), 'utf-16be'],
    ['UTF-16LE without BOM', Buffer.from(text, 'utf16le'), 'utf-16le'],
    ['UTF-16BE without BOM', utf16be(text), 'utf-16be'],
    ['GBK', Buffer.concat([gbkZhangSan, Buffer.from(' 13800138000\r\n'), gbkLiSi, Buffer.from(',139-0013-9000\r\n\r\n+86 130 0013 0000\r\n')]), 'gbk'],
  ];
  for (const [name, bytes, encoding] of files) {
    it(`reads ${name}, also fed a byte at a time`, () => {
      const { numbers, summary } = parse(bytes);
      expect(summary.encoding).toBe(encoding);
      expect(numbers).toEqual(expected.numbers);
      expect(summary.invalid).toBe(expected.invalid);
      expect(summary.invalidSamples).toEqual(expected.samples);
    });
  }

  it('decides UTF-8 or GBK at the first non-ASCII byte, however far into the file', () => {
    const ascii = Buffer.from('13800138000\n'.repeat(2000));
    const late = (name: Buffer) => Buffer.concat([ascii, name, Buffer.from('\n13900139000\n')]);
    const asGbk = parseWhole(late(gbkZhangSan), 4096);
    expect(asGbk.summary).toMatchObject({ encoding: 'gbk', valid: 2, duplicatesInFile: 1999, invalidSamples: [{ line: 2001, text: '张三' }] });
    const asUtf8 = parseWhole(late(Buffer.from('张三')), 4096);
    expect(asUtf8.summary).toMatchObject({ encoding: 'utf-8', valid: 2, invalidSamples: [{ line: 2001, text: '张三' }] });
  });

  it('reads a plain ASCII file and an empty file as UTF-8', () => {
    expect(parse('13800138000').summary.encoding).toBe('utf-8');
    expect(parse('').summary).toMatchObject({ encoding: 'utf-8', valid: 0, invalid: 0 });
  });

  it('counts bytes that are not text in the chosen encoding as invalid, never drops them', () => {
    // valid UTF-8 first (decides UTF-8), then a stray GBK name far beyond the 4 KB window
    const bytes = Buffer.concat([Buffer.from('张三\n'), Buffer.from('13800138000\n'.repeat(1000)), gbkLiSi, Buffer.from('\n')]);
    const { summary } = parseWhole(bytes, 1000);
    expect(summary).toMatchObject({ encoding: 'utf-8', valid: 1, invalid: 2 });
  });
});

describe('number file: streaming API', () => {
  it('reads a Readable and awaits each batch', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => String(13800000000 + i)).join('\n');
    const seen: number[][] = [];
    const summary = await parseNumberFile(Readable.from([Buffer.from(lines.slice(0, 17)), Buffer.from(lines.slice(17))]), async (batch) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      seen.push(batch.numbers);
    }, { batchSize: 5 });
    expect(seen.map((b) => b.length)).toEqual([5, 5, 2]);
    expect(summary.valid).toBe(12);
  });

  it('refuses a stream decoded into strings', async () => {
    await expect(parseNumberFile(Readable.from(['13800138000']), () => {})).rejects.toThrow(TypeError);
  });

  it('reads typed text by the same rules as a file', () => {
    const text = '+86 138 0013 8000\n张三 13900139000，13800138000；abc\r\n0086-130-0013-0000\t1380013800';
    const numbers: number[] = [];
    const summary = scanNumberText(text, (batch) => numbers.push(...batch.numbers));
    const file = parse(text);
    expect(numbers).toEqual(file.numbers);
    expect(summary).toEqual(file.summary);
    expect(summary).toMatchObject({ valid: 3, invalid: 3, duplicatesInFile: 1 });
  });
});
