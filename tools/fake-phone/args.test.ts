import { describe, expect, it } from 'vitest';
import { parseFakePhoneArgs } from './args.ts';
import { PhoneBooks, sumBooks } from './books.ts';
import { formatBooks } from './report.ts';

describe('npm run fake-phone arguments', () => {
  it('defaults: 3 phones at a real phone\'s pace with the demo\'s rates', () => {
    expect(parseFakePhoneArgs([])).toMatchObject({ phones: 3, speed: 1, failRate: 0.02, undeliveredRate: 0.05, replyRate: 0.01, portBase: 0 });
  });

  it('reads every option', () => {
    expect(parseFakePhoneArgs(['--phones', '5', '--fail', '0', '--undelivered', '0.1', '--reply-rate', '0.5', '--port-base', '18600', '--speed', '0', '--password', 'pw']))
      .toMatchObject({ phones: 5, failRate: 0, undeliveredRate: 0.1, replyRate: 0.5, portBase: 18600, speed: 0, password: 'pw', json: false });
    expect(parseFakePhoneArgs(['--json', '--phones', '2'])).toMatchObject({ json: true, phones: 2 });
  });

  it('refuses a rate above 1, a fractional phone count, an unknown or valueless option', () => {
    expect(() => parseFakePhoneArgs(['--fail', '2'])).toThrow(/--fail/);
    expect(() => parseFakePhoneArgs(['--phones', '1.5'])).toThrow(/--phones/);
    expect(() => parseFakePhoneArgs(['--phone', '3'])).toThrow(/unknown argument/);
    expect(() => parseFakePhoneArgs(['--phones'])).toThrow(/needs a value/);
  });

  it('the live line: the books in one line, numbers sent twice called out', () => {
    expect(formatBooks(sumBooks([]))).toBe('accepted 0 · sent 0 · delivered 0 · failed 0 · undelivered 0 · replies 0 (退订 0) · webhooks 0 posts');
    const books = new PhoneBooks();
    const entry = { messageId: 'a', recipient: '13800138000', text: 'x', parts: 1, simNumber: 1, at: 0, state: 'Delivered' as const };
    books.sends.push(entry, { ...entry, messageId: 'b' });
    expect(formatBooks(books.summary())).toMatch(/sent 2 · delivered 2 .* NUMBERS SENT TWICE 1$/);
  });
});
