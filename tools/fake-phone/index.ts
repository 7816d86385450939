import { sumBooks, type BooksSummary } from './books.ts';
import { FakePhone, type PhoneOptions } from './phone.ts';

// The fake phones' front door: `startFakePhones({ phones: 3 })` → each phone's URL, credentials, signing key,
// books and controls, and stop(). Tests, the bench and the CLI use this; nothing else in the folder is needed.

export type FakePhonesOptions = Omit<PhoneOptions, 'port' | 'name'> & {
  phones?: number;
  /** phone i listens on portBase + i; default 0: any free port */
  portBase?: number;
};

export type FakePhones = { phones: FakePhone[]; summary: () => BooksSummary; whenIdle: () => Promise<void>; stop: () => Promise<void> };

export async function startFakePhones(options: FakePhonesOptions = {}): Promise<FakePhones> {
  const { phones: count = 1, portBase = 0, ...phoneOptions } = options;
  const phones: FakePhone[] = [];
  try {
    for (let i = 0; i < count; i++) {
      phones.push(await new FakePhone({ ...phoneOptions, name: `Fake Phone ${i + 1}` }).start(portBase ? portBase + i : 0));
    }
  } catch (error) {
    await Promise.all(phones.map((p) => p.stop()));
    throw error;
  }
  return {
    phones,
    summary: () => sumBooks(phones.map((p) => p.books)),
    whenIdle: async () => {
      await Promise.all(phones.map((p) => p.whenIdle()));
    },
    stop: async () => {
      await Promise.all(phones.map((p) => p.stop()));
    },
  };
}

export { FakePhone, type PhoneOptions } from './phone.ts';
export { PhoneBooks, sumBooks, UNSUBSCRIBE_KEYWORDS, type BooksSummary, type SendEntry, type ReplyEntry } from './books.ts';
export { signBody } from './webhooks.ts';
export { smsParts } from './sms-parts.ts';
export { SEND_FAILED, LIMIT_EXCEEDED, UNDELIVERED } from './engine.ts';
export { seededRandom } from '../lib/seeded-random.ts';
