import { randomInt } from 'node:crypto';
import { RandomNum, RandomPosition, type DeviceBatchItem } from '@huiyun/contract';

const RANDOM_DIGITS = 6;

export type ContentRule = { content: string; isRandomNum: number; randomPosition: number };

/** The text for one message: isRandomNum adds six random digits before (position 0) or after (1) it. */
export function messageText(rule: ContentRule, random: () => number = () => randomInt(10 ** RANDOM_DIGITS)): string {
  if (rule.isRandomNum !== RandomNum.yes) return rule.content;
  const digits = String(random()).padStart(RANDOM_DIGITS, '0');
  if (!rule.content) return digits;
  return rule.randomPosition === RandomPosition.suffix ? `${rule.content} ${digits}` : `${digits} ${rule.content}`;
}

export type TestPhoneRule = { testNum: number; testPhone: string };

/**
 * The items of a batch: each number with its own text, and the task's test phone after every
 * testNum-th number of the task. `handedOutBefore` is how many numbers the task gave out before these.
 */
export function batchItems(
  numbers: { id: number; phone: number | string; attempts: number }[],
  rule: ContentRule & TestPhoneRule,
  handedOutBefore: number,
): DeviceBatchItem[] {
  const items: DeviceBatchItem[] = [];
  const withTest = rule.testNum > 0 && rule.testPhone.length > 0;
  numbers.forEach((n, i) => {
    items.push({ id: n.id, phone: String(n.phone), content: messageText(rule), test: false, attempt: n.attempts });
    if (withTest && (handedOutBefore + i + 1) % rule.testNum === 0) {
      items.push({ id: null, phone: rule.testPhone, content: messageText(rule), test: true, attempt: 0 });
    }
  });
  return items;
}
