// The uploaded number file (PRODUCT §4): a streaming reader that turns bytes of any encoding operators
// produce into batches of distinct valid numbers with their carrier, and a summary of what it skipped.
// Memory stays flat however long the file: chunks are decoded and scanned as they come, never joined.
//
// The encoding is decided once per file (encoding.ts); the decoded text is scanned for numbers
// (number-scanner.ts: tokens, the space rule, duplicates through number-set.ts).
import { isAscii } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { detectUnicodeEncoding, SNIFF_BYTES, UTF8_CHECK_BYTES, utf8OrGbk } from './encoding.ts';
import { NumberScanner, type NumberBatch, type NumberFileEncoding, type NumberFileSummary } from './number-scanner.ts';
import { NumberSet } from './number-set.ts';

export type NumberFileOptions = {
  /** Numbers per batch (default 5000). */
  batchSize?: number;
  /** Invalid tokens kept as samples (default 20). */
  maxInvalidSamples?: number;
};

const DEFAULT_BATCH_SIZE = 5000;
const DEFAULT_MAX_INVALID_SAMPLES = 20;

/**
 * Reads a number file from a stream (a Node Readable or any async iterable of bytes), awaiting
 * `onBatch` for each batch of up to `batchSize` distinct valid numbers, and answers the summary.
 */
export async function parseNumberFile(
  input: AsyncIterable<Uint8Array>,
  onBatch: (batch: NumberBatch) => void | Promise<void>,
  options: NumberFileOptions = {},
): Promise<NumberFileSummary> {
  const ready: NumberBatch[] = [];
  const parser = new NumberFileParser((batch) => ready.push(batch), options);
  for await (const chunk of input) {
    if (!(chunk instanceof Uint8Array)) throw new TypeError('parseNumberFile reads bytes: do not set an encoding on the stream');
    parser.write(chunk);
    for (const batch of ready.splice(0)) await onBatch(batch);
  }
  const summary = parser.end();
  for (const batch of ready.splice(0)) await onBatch(batch);
  return summary;
}

/**
 * The same rules over text already decoded (numbers typed into a form): `onBatch` as batches fill, then
 * the summary (its encoding is 'utf-8'). A file, of any encoding, goes through parseNumberFile.
 */
export function scanNumberText(text: string, onBatch: (batch: NumberBatch) => void, options: NumberFileOptions = {}): NumberFileSummary {
  const scanner = new NumberScanner(
    onBatch,
    options.batchSize ?? DEFAULT_BATCH_SIZE,
    options.maxInvalidSamples ?? DEFAULT_MAX_INVALID_SAMPLES,
    new NumberSet(),
  );
  scanner.scan(text);
  return scanner.end('utf-8');
}

/** The synchronous core: `write` chunks, then `end`; `onBatch` is called as batches fill. */
export class NumberFileParser {
  private readonly scanner: NumberScanner;
  private readonly sniffed: Uint8Array[] = [];
  private sniffedBytes = 0;
  private stage: 'sniff' | 'ascii' | 'utf8-check' | 'decoding' = 'sniff';
  private decoder: TextDecoder | null = null;
  private readonly asciiDecoder = new TextDecoder('utf-8');
  private encoding: NumberFileEncoding = 'utf-8';

  constructor(onBatch: (batch: NumberBatch) => void, options: NumberFileOptions = {}) {
    this.scanner = new NumberScanner(
      onBatch,
      options.batchSize ?? DEFAULT_BATCH_SIZE,
      options.maxInvalidSamples ?? DEFAULT_MAX_INVALID_SAMPLES,
      new NumberSet(),
    );
  }

  write(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    switch (this.stage) {
      case 'decoding':
        this.scanner.scan(this.decoder!.decode(bytes, { stream: true }));
        return;
      case 'ascii':
        this.writeAscii(bytes);
        return;
      case 'sniff':
      case 'utf8-check':
        this.sniffed.push(bytes.slice()); // a few KB once per file; the caller may reuse its buffer
        this.sniffedBytes += bytes.length;
        if (this.stage === 'sniff' && this.sniffedBytes >= SNIFF_BYTES) this.sniff();
        else if (this.stage === 'utf8-check' && this.sniffedBytes >= UTF8_CHECK_BYTES) this.decideUtf8OrGbk(false);
    }
  }

  end(): NumberFileSummary {
    if (this.stage === 'sniff') this.sniff();
    if (this.stage === 'utf8-check') this.decideUtf8OrGbk(true);
    if (this.decoder) this.scanner.scan(this.decoder.decode());
    return this.scanner.end(this.encoding);
  }

  private takeSniffed(): Uint8Array {
    const bytes = this.sniffed.length === 1 ? this.sniffed[0] : Buffer.concat(this.sniffed);
    this.sniffed.length = 0;
    this.sniffedBytes = 0;
    return bytes;
  }

  private sniff(): void {
    const head = this.takeSniffed();
    const encoding = detectUnicodeEncoding(head);
    if (encoding) {
      this.startDecoding(encoding, head);
    } else {
      this.stage = 'ascii';
      this.writeAscii(head);
    }
  }

  private startDecoding(encoding: NumberFileEncoding, bytes: Uint8Array): void {
    this.encoding = encoding;
    this.stage = 'decoding';
    this.decoder = new TextDecoder(encoding); // strips its own BOM
    if (bytes.length > 0) this.scanner.scan(this.decoder.decode(bytes, { stream: true }));
  }

  /** Undecided between UTF-8 and GBK: ASCII reads the same in both, so it is scanned right away. */
  private writeAscii(bytes: Uint8Array): void {
    if (isAscii(bytes)) {
      this.scanner.scan(this.asciiDecoder.decode(bytes));
      return;
    }
    let first = 0;
    while (bytes[first] < 0x80) first += 1;
    if (first > 0) this.scanner.scan(this.asciiDecoder.decode(bytes.subarray(0, first)));
    this.stage = 'utf8-check';
    this.write(bytes.subarray(first));
  }

  private decideUtf8OrGbk(atEnd: boolean): void {
    const window = this.takeSniffed();
    this.startDecoding(utf8OrGbk(window, atEnd), window);
  }
}
