// Carrier of a mainland China mobile number by its prefix.
//
// Source: /work/shared/data/cn-mobile-prefixes.md — MIIT table "我国公众移动通信网网号及H₀分配情况" as of
// end of March 2023, cross-checked with libphonenumber resources/carrier/zh/86.txt (v9.0.35); copied here
// 2026-11-22. Numbers have been portable since 2019-11-27, so a prefix gives the original carrier only.
// Update `carrierPrefixes` from that file and nothing else; the tests check every row.
import type { Option } from './enums.ts';

export const Carrier = { mobile: 1, unicom: 2, telecom: 3, other: 4 } as const;
export type Carrier = (typeof Carrier)[keyof typeof Carrier];
export type CarrierKey = keyof typeof Carrier;

export const carrierOptions: Option<Carrier>[] = [
  { value: 1, label: '移动' },
  { value: 2, label: '联通' },
  { value: 3, label: '电信' },
  { value: 4, label: '其他' },
];

/** Carrier value → its key, for per-carrier totals (`byCarrier.mobile` …). */
export const carrierKeys: Record<Carrier, CarrierKey> = { 1: 'mobile', 2: 'unicom', 3: 'telecom', 4: 'other' };

/**
 * The table row by row: 3, 4 or 5 leading digits, 'a-b' an inclusive range of prefixes of one length.
 * The longest matching prefix wins; a valid number matching none is 其他.
 */
export const carrierPrefixes: Record<CarrierKey, readonly string[]> = {
  mobile: [
    '1340-1348', '135-139', '147', '148', '150-152', '157-159', '165', '1703', '1705', '1706', '172', '178',
    '182-184', '187', '188', '195', '197', '198',
  ],
  unicom: ['130-132', '145', '146', '155', '156', '166', '167', '1704', '1707-1709', '171', '175', '176', '185', '186', '196'],
  telecom: [
    '133', '149', '153', '162', '1700-1702', '173', '17400-17405', '177', '180', '181', '189', '190', '191', '193', '199',
  ],
  other: ['192', '1349', '1619', '17406-17412', '1749'],
};

/** Every prefix a table entry stands for ('150-152' → 150, 151, 152). */
export function expandPrefixes(entry: string): string[] {
  const [from, to = from] = entry.split('-');
  if (from.length !== to.length || !/^1\d{2,4}$/.test(from) || !/^1\d{2,4}$/.test(to) || Number(to) < Number(from)) {
    throw new Error(`bad carrier prefix entry '${entry}'`);
  }
  const out: string[] = [];
  for (let p = Number(from); p <= Number(to); p += 1) out.push(String(p));
  return out;
}

// Classification runs once per uploaded number (millions per file), so the table is expanded once into
// one byte per 5-digit prefix 10000–19999: classifying is a division and an array read.
const FIVE_DIGIT_BASE = 10000;
const byFiveDigits: Uint8Array = buildFiveDigitTable();

function buildFiveDigitTable(): Uint8Array {
  const table = new Uint8Array(10000).fill(Carrier.other);
  const owner = new Map<string, CarrierKey>();
  const entries: { prefix: string; carrier: CarrierKey }[] = [];
  for (const carrier of Object.keys(carrierPrefixes) as CarrierKey[]) {
    for (const entry of carrierPrefixes[carrier]) {
      for (const prefix of expandPrefixes(entry)) {
        const previous = owner.get(prefix);
        if (previous) throw new Error(`carrier prefix ${prefix} listed for both ${previous} and ${carrier}`);
        owner.set(prefix, carrier);
        entries.push({ prefix, carrier });
      }
    }
  }
  // Shorter prefixes first, so a longer one (1703, 1349, 17400–17405) overrides the range it refines.
  entries.sort((a, b) => a.prefix.length - b.prefix.length);
  for (const { prefix, carrier } of entries) {
    const span = 10 ** (5 - prefix.length);
    const start = Number(prefix) * span - FIVE_DIGIT_BASE;
    table.fill(Carrier[carrier], start, start + span);
  }
  return table;
}

/** 11 digits, a leading 1 and a second digit 3–9: the numbers the sending service accepts. */
export function isSendableNumber(number: string): boolean {
  if (number.length !== 11 || number.charCodeAt(0) !== 49) return false;
  const second = number.charCodeAt(1);
  if (second < 51 || second > 57) return false;
  for (let i = 2; i < 11; i += 1) {
    const c = number.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Lowest and one past the highest sendable number as a JS number (13000000000 … 19999999999). */
export const MIN_SENDABLE_NUMBER = 13_000_000_000;
export const END_SENDABLE_NUMBER = 20_000_000_000;

/** Carrier of a sendable number held as a JS number (the upload parser's form); no validity check. */
export function carrierOfNumber(number: number): Carrier {
  return byFiveDigits[((number / 1_000_000) | 0) - FIVE_DIGIT_BASE] as Carrier;
}

/** Carrier of a sendable number ('13800138000'); throws on anything `isSendableNumber` refuses. */
export function classifyCarrier(number: string): Carrier {
  if (!isSendableNumber(number)) throw new RangeError(`not a sendable mobile number: '${number}'`);
  return byFiveDigits[Number(number.slice(0, 5)) - FIVE_DIGIT_BASE] as Carrier;
}

export function carrierLabel(carrier: Carrier): string {
  return carrierOptions[carrier - 1].label;
}
