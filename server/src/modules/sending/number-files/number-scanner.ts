// Decoded text of a number file in, tokens classified, numbers deduplicated and batched.
//
// Tokens: newlines (LF, CRLF, CR), commas (, ，), semicolons (; ；) and tabs end a field; spaces split a
// field into pieces. Inside a piece dashes and parentheses are dropped, a leading + is kept for the
// country code. A piece or field is valid when its digits are 11 digits 1[3-9]…, after dropping a leading
// 86 / +86 / 0086 that leaves exactly 11 digits. Full-width digits count as digits.
//
// Spaces are ambiguous: '138 0013 8000' is one number written in groups, '13800138000 13900139000' two
// numbers. Rule, per field:
//   1. if the field with its spaces removed is one valid number, it is that number ('+86 138 0013 8000');
//   2. else if any of its space-separated pieces is a valid number, every piece counts on its own
//      (valid ones as numbers, the others as invalid: '张三 13800138000' → 1 valid, 1 invalid);
//   3. else the field is one invalid token ('138 0013 800', '张 三').
// Empty fields (blank lines, ',,', a lone '-') are ignored, not invalid.
//
// Numbers are held as JS numbers (11 digits < 2^53). Duplicates within the file are dropped from the
// batches and counted, with NumberSet (number-set.ts: typed-array hash tables, no per-entry objects).
// The carriers module alone, not the whole contract: this file also runs on the upload worker thread,
// where loading every schema of the contract would cost ≈ 25 MB and a good part of its start.
import {
  carrierKeys, carrierOfNumber, END_SENDABLE_NUMBER, MIN_SENDABLE_NUMBER, type Carrier, type CarrierKey,
} from '@huiyun/contract/carriers';
import type { InvalidLine } from '@huiyun/contract';
import type { NumberSet } from './number-set.ts';

export type NumberFileEncoding = 'utf-8' | 'gbk' | 'utf-16le' | 'utf-16be';

/** Distinct valid numbers in file order; `carriers[i]` is the carrier of `numbers[i]`. */
export type NumberBatch = { numbers: number[]; carriers: Uint8Array };

/** The answer's invalid line (a type only: nothing of the contract's schemas is loaded here). */
export type InvalidSample = InvalidLine;

export type NumberFileSummary = {
  encoding: NumberFileEncoding;
  /** Distinct valid numbers, the total of every batch. */
  valid: number;
  /** Invalid tokens (see the space rule above), not counting empty lines. */
  invalid: number;
  /** Valid numbers seen again later in the same file, left out of the batches. */
  duplicatesInFile: number;
  byCarrier: Record<CarrierKey, number>;
  /** The first invalid tokens with their 1-based line, text cut to 40 characters. */
  invalidSamples: InvalidSample[];
};

const SAMPLE_CHARS = 40;
/** Longest compact form that can still be one number: '0086' + 11 digits. */
const MAX_NUMBER_CHARS = 15;

// Character classes of the scanner.
const JUNK = 0;
const DIGIT = 1;
const SPACE = 2;
const SEPARATOR = 3;
const LF = 4;
const CR = 5;
const STRIP = 6;
const PLUS = 7;
const WIDE_DIGIT = 8;

const ASCII_CLASS = new Uint8Array(128);
for (let c = 48; c <= 57; c += 1) ASCII_CLASS[c] = DIGIT;
ASCII_CLASS[32] = SPACE;
ASCII_CLASS[9] = SEPARATOR; // tab: columns of a spreadsheet export, never a group inside a number
ASCII_CLASS[44] = SEPARATOR; // ,
ASCII_CLASS[59] = SEPARATOR; // ;
ASCII_CLASS[10] = LF;
ASCII_CLASS[13] = CR;
ASCII_CLASS[45] = STRIP; // -
ASCII_CLASS[40] = STRIP; // (
ASCII_CLASS[41] = STRIP; // )
ASCII_CLASS[43] = PLUS;

function classOfWide(c: number): number {
  if (c >= 0xff10 && c <= 0xff19) return WIDE_DIGIT; // ０–９
  switch (c) {
    case 0xff0c: // ，
    case 0xff1b: // ；
      return SEPARATOR;
    case 0x3000: // ideographic space
    case 0x00a0: // no-break space
    case 0xfeff: // a stray BOM inside the file (files pasted together)
      return SPACE;
    case 0xff08: // （
    case 0xff09: // ）
    case 0xff0d: // －
      return STRIP;
    case 0xff0b: // ＋
      return PLUS;
    default:
      return JUNK;
  }
}

const POW10 = Array.from({ length: MAX_NUMBER_CHARS + 1 }, (_, i) => 10 ** i);
const COUNTRY_CODE = 86e11; // 86 followed by 11 digits

/** The 11-digit number a compact token stands for, or 0. `other` non-digits are only a leading '+'. */
function normalize(plus: boolean, digits: number, value: number): number {
  let n: number;
  if (digits === 11 && !plus) n = value;
  else if ((digits === 13 || (digits === 15 && !plus)) && value >= COUNTRY_CODE && value < COUNTRY_CODE + 1e11) n = value - COUNTRY_CODE;
  else return 0;
  return n >= MIN_SENDABLE_NUMBER && n < END_SENDABLE_NUMBER ? n : 0;
}

/** Decoded text in, tokens classified, numbers deduplicated and batched. */
export class NumberScanner {
  private readonly seen: NumberSet;
  private numbers: number[] = [];
  private carriers: Uint8Array;
  private valid = 0;
  private invalid = 0;
  private duplicates = 0;
  private readonly carrierCounts = [0, 0, 0, 0, 0];
  private readonly samples: InvalidSample[] = [];
  private line = 1;
  private endedWithCr = false;

  // The piece (space-separated part of a field) being read.
  private pOpen = false;
  private pDigits = 0;
  private pValue = 0;
  private pOther = 0;
  private pBad = false;
  private pPlus = false;
  private pText = ''; // its text from earlier chunks, kept only while samples are wanted

  // The field (between separators) being read: its pieces joined, and what they decided so far.
  private fOpen = false;
  private fPieces = 0;
  private fDigits = 0;
  private fValue = 0;
  private fOther = 0;
  private fBad = false;
  private fPlus = false;
  private fText = '';
  /** Pieces count on their own (rule 2 is certain): each piece is emitted as it ends. */
  private fSplit = false;
  /** While undecided: the one valid piece so far (0 none), the invalid pieces and their texts. */
  private pendingValid = 0;
  private pendingInvalid = 0;
  private pendingSamples: string[] = [];

  private readonly onBatch: (batch: NumberBatch) => void;
  private readonly batchSize: number;
  private readonly maxSamples: number;

  constructor(onBatch: (batch: NumberBatch) => void, batchSize: number, maxSamples: number, seen: NumberSet) {
    this.onBatch = onBatch;
    this.seen = seen;
    this.batchSize = batchSize;
    this.maxSamples = maxSamples;
    this.carriers = new Uint8Array(batchSize);
  }

  scan(text: string): void {
    const length = text.length;
    if (length === 0) return;
    // Piece state in locals: this loop runs once per character of the file.
    let pStart = this.pOpen ? 0 : -1;
    let fStart = this.fOpen ? 0 : -1;
    let pDigits = this.pDigits;
    let pValue = this.pValue;
    let pOther = this.pOther;
    let pBad = this.pBad;
    let pPlus = this.pPlus;
    for (let i = 0; i < length; i += 1) {
      const c = text.charCodeAt(i);
      const kind = c < 128 ? ASCII_CLASS[c] : classOfWide(c);
      if (kind === DIGIT) {
        if (pStart < 0) {
          pStart = i;
          if (fStart < 0) fStart = i;
        }
        pValue = pValue * 10 + (c - 48);
        pDigits += 1;
        continue;
      }
      switch (kind) {
        case WIDE_DIGIT:
        case PLUS:
        case JUNK:
        case STRIP:
          if (pStart < 0) {
            pStart = i;
            if (fStart < 0) fStart = i;
          }
          if (kind === WIDE_DIGIT) {
            pValue = pValue * 10 + (c - 0xff10);
            pDigits += 1;
          } else if (kind === PLUS) {
            if (pDigits + pOther === 0) pPlus = true;
            else pBad = true;
            pOther += 1;
          } else if (kind === JUNK) {
            pBad = true;
            pOther += 1;
          }
          break;
        default: // SPACE, SEPARATOR, LF, CR
          if (pStart >= 0) {
            this.endPiece(text, pStart, i, pDigits, pValue, pOther, pBad, pPlus);
            pStart = -1;
            pDigits = 0;
            pValue = 0;
            pOther = 0;
            pBad = false;
            pPlus = false;
          }
          if (kind === SPACE) break;
          if (fStart >= 0) {
            this.endField(text, fStart, i);
            fStart = -1;
          }
          if (kind === CR) this.line += 1;
          else if (kind === LF && !(i === 0 ? this.endedWithCr : text.charCodeAt(i - 1) === 13)) this.line += 1;
      }
    }
    this.endedWithCr = text.charCodeAt(length - 1) === 13;
    this.pOpen = pStart >= 0;
    this.pDigits = pDigits;
    this.pValue = pValue;
    this.pOther = pOther;
    this.pBad = pBad;
    this.pPlus = pPlus;
    this.fOpen = fStart >= 0;
    if (this.wantsSamples()) {
      if (this.pOpen) this.pText = (this.pText + text.slice(pStart)).slice(0, SAMPLE_CHARS + 1);
      if (this.fOpen) this.fText = (this.fText + text.slice(fStart)).slice(0, SAMPLE_CHARS + 1);
    }
  }

  end(encoding: NumberFileEncoding): NumberFileSummary {
    this.scan('\n');
    if (this.numbers.length > 0) this.flush();
    const byCarrier = { mobile: 0, unicom: 0, telecom: 0, other: 0 };
    for (const [value, key] of Object.entries(carrierKeys)) byCarrier[key] = this.carrierCounts[Number(value)];
    return {
      encoding,
      valid: this.valid,
      invalid: this.invalid,
      duplicatesInFile: this.duplicates,
      byCarrier,
      invalidSamples: this.samples,
    };
  }

  private wantsSamples(): boolean {
    return this.samples.length < this.maxSamples;
  }

  private endPiece(text: string, start: number, end: number, digits: number, value: number, other: number, bad: boolean, plus: boolean): void {
    const pieceText = this.pText;
    this.pText = '';
    if (digits + other === 0) return; // only dashes or parentheses
    const n = bad ? 0 : normalize(plus, digits, value);

    const joined = this.fDigits + this.fOther;
    if (joined === 0) this.fPlus = plus;
    else if (plus) this.fBad = true;
    if (bad) this.fBad = true;
    if (this.fDigits + digits <= MAX_NUMBER_CHARS) this.fValue = this.fValue * POW10[digits] + value;
    this.fDigits += digits;
    this.fOther += other;
    this.fPieces += 1;

    if (this.fSplit) {
      if (n) this.addNumber(n);
      else this.addInvalid(this.wantsSamples() ? pieceText + text.slice(start, end) : undefined);
      return;
    }
    if (n) {
      if (this.pendingValid !== 0) {
        this.split();
        this.addNumber(n);
        return;
      }
      this.pendingValid = n;
    } else {
      this.pendingInvalid += 1;
      if (this.samples.length + this.pendingSamples.length < this.maxSamples) this.pendingSamples.push(pieceText + text.slice(start, end));
    }
    if (this.pendingValid !== 0 && (this.fBad || this.fDigits + this.fOther > MAX_NUMBER_CHARS)) this.split();
  }

  /** Rule 2 holds: the pieces held back count on their own, and later ones as they end. */
  private split(): void {
    this.fSplit = true;
    if (this.pendingValid !== 0) this.addNumber(this.pendingValid);
    for (let i = 0; i < this.pendingInvalid; i += 1) this.addInvalid(this.pendingSamples[i]);
    this.pendingValid = 0;
    this.pendingInvalid = 0;
    this.pendingSamples = [];
  }

  private endField(text: string, start: number, end: number): void {
    if (this.fPieces === 1 && !this.fSplit) {
      if (this.pendingValid !== 0) this.addNumber(this.pendingValid);
      else this.addInvalid(this.pendingSamples[0]);
    } else if (this.fPieces > 1 && !this.fSplit) {
      const n = this.fBad || this.fDigits + this.fOther > MAX_NUMBER_CHARS ? 0 : normalize(this.fPlus, this.fDigits, this.fValue);
      if (n) this.addNumber(n); // rule 1
      else if (this.pendingValid !== 0) this.split(); // rule 2
      else this.addInvalid(this.wantsSamples() ? (this.fText + text.slice(start, end)).trim() : undefined); // rule 3
    }
    this.fText = '';
    this.fPieces = 0;
    this.fDigits = 0;
    this.fValue = 0;
    this.fOther = 0;
    this.fBad = false;
    this.fPlus = false;
    this.fSplit = false;
    this.pendingValid = 0;
    this.pendingInvalid = 0;
    if (this.pendingSamples.length > 0) this.pendingSamples = [];
  }

  private addInvalid(text: string | undefined): void {
    this.invalid += 1;
    if (text !== undefined && this.samples.length < this.maxSamples) {
      this.samples.push({ line: this.line, text: text.length > SAMPLE_CHARS ? `${text.slice(0, SAMPLE_CHARS)}…` : text });
    }
  }

  private addNumber(n: number): void {
    if (!this.seen.add(n)) {
      this.duplicates += 1;
      return;
    }
    const carrier: Carrier = carrierOfNumber(n);
    this.carrierCounts[carrier] += 1;
    this.valid += 1;
    this.carriers[this.numbers.length] = carrier;
    this.numbers.push(n);
    if (this.numbers.length === this.batchSize) this.flush();
  }

  private flush(): void {
    const count = this.numbers.length;
    this.onBatch({ numbers: this.numbers, carriers: count === this.batchSize ? this.carriers : this.carriers.slice(0, count) });
    this.numbers = [];
    this.carriers = new Uint8Array(this.batchSize);
  }
}
