import { afterEach, describe, expect, it } from 'vitest';
import { LIMIT_EXCEEDED, SEND_FAILED, startFakePhones, UNDELIVERED, type FakePhones } from './index.ts';
import { messageState } from './messages.ts';
import { smsParts } from './sms-parts.ts';
import { phoneClient, until } from './test-support.ts';

// What happens to a message once accepted: per-recipient states, the message's derived state, the processing
// order, the failures' error strings and the health check (fact sheet §1, §3, §9).

let fleet: FakePhones | undefined;
afterEach(async () => {
  await fleet?.stop();
  fleet = undefined;
});
const start = async (options: Parameters<typeof startFakePhones>[0] = {}) => {
  fleet = await startFakePhones(options);
  const phone = fleet.phones[0]!;
  return { phone, call: phoneClient(phone) };
};
const send = (id: string, phoneNumbers: string[], text = '您好') => ({ id, textMessage: { text }, phoneNumbers });

describe('state progression', () => {
  it('Pending → Processed → Sent → Delivered, each state timed in `states`', async () => {
    const { phone, call } = await start();
    await call('POST', '/messages', send('m1', ['13800138000', '13900139000']));
    await phone.whenIdle();
    const { body } = await call('GET', '/messages/m1');
    expect(body.state).toBe('Delivered');
    expect(body.recipients.map((r: { state: string }) => r.state)).toEqual(['Delivered', 'Delivered']);
    expect(Object.keys(body.states)).toEqual(['Pending', 'Processed', 'Sent', 'Delivered']);
    expect(phone.books.sends.map((s) => [s.recipient, s.state])).toEqual([['13800138000', 'Delivered'], ['13900139000', 'Delivered']]);
  });

  it('without a delivery report the message ends Sent', async () => {
    const { phone, call } = await start();
    await call('POST', '/messages', { ...send('m1', ['13800138000']), withDeliveryReport: false });
    await phone.whenIdle();
    expect((await call('GET', '/messages/m1')).body.state).toBe('Sent');
  });

  it('a refused send fails with the app\'s error string; a phone with only failures in the last hour answers /health 500', async () => {
    const { phone, call } = await start({ failRate: 1 });
    await call('POST', '/messages', send('m1', ['13800138000']));
    await phone.whenIdle();
    const { body } = await call('GET', '/messages/m1');
    expect(body).toMatchObject({ state: 'Failed', recipients: [{ state: 'Failed', error: SEND_FAILED }] });
    expect(SEND_FAILED).toBe('Send result: RESULT_ERROR_GENERIC_FAILURE');
    expect((await fetch(`${phone.url}/health`)).status).toBe(500);
  });

  it('an undelivered number fails with a Delivery result after it was sent', async () => {
    const { phone, call } = await start({ undeliveredRate: 1 });
    await call('POST', '/messages', send('m1', ['13800138000']));
    await phone.whenIdle();
    const { body } = await call('GET', '/messages/m1');
    expect(body.recipients[0]).toEqual({ phoneNumber: '13800138000', state: 'Failed', error: UNDELIVERED });
    expect(UNDELIVERED).toMatch(/^Delivery result/);
    expect(Object.keys(body.states)).toContain('Sent');
    expect(phone.books.summary()).toMatchObject({ sent: 1, delivered: 0, undelivered: 1, sendFailed: 0 });
  });

  it('one recipient failed and one delivered: the message is Sent (§1); an implausible number fails at send', async () => {
    const { phone, call } = await start();
    await call('POST', '/messages', send('m1', ['13800138000', 'abc']));
    await phone.whenIdle();
    const { body } = await call('GET', '/messages/m1');
    expect(body.state).toBe('Sent');
    expect(body.recipients[1]).toMatchObject({ state: 'Failed', error: 'sendSMS: Invalid phone number' });
    expect((await fetch(`${phone.url}/health`)).status).toBe(200);
  });

  it('Android\'s limit: every send fails with RESULT_ERROR_LIMIT_EXCEEDED until it is lifted', async () => {
    const { phone, call } = await start();
    phone.setLimitExceeded(true);
    await call('POST', '/messages', send('m1', ['13800138000']));
    await phone.whenIdle();
    expect((await call('GET', '/messages/m1')).body.recipients[0].error).toBe(LIMIT_EXCEEDED);
    expect(LIMIT_EXCEEDED).toBe('Send result: RESULT_ERROR_LIMIT_EXCEEDED');
    phone.setLimitExceeded(false);
    await call('POST', '/messages', send('m2', ['13800138000']));
    await phone.whenIdle();
    expect((await call('GET', '/messages/m2')).body.state).toBe('Delivered');
    expect(phone.books.timesSent('13800138000')).toBe(2);
  });

  it('the app\'s own limit (limit_period/limit_value): past it, the next message stays Pending', async () => {
    const { phone, call } = await start();
    await call('PATCH', '/settings', { messages: { processing_order: 'FIFO', limit_period: 'PerHour', limit_value: 1 } });
    await call('POST', '/messages', send('m1', ['13800138000']));
    await call('POST', '/messages', send('m2', ['13900139000']));
    await until(() => phone.books.sends[0]?.state === 'Delivered');
    expect((await call('GET', '/messages/m2')).body.state).toBe('Pending');
    expect(phone.books.sends).toHaveLength(1);
  });

  it('messages wait in the processing order: LIFO by default, FIFO once set', async () => {
    for (const order of ['LIFO', 'FIFO'] as const) {
      const { phone, call } = await start();
      if (order === 'FIFO') await call('PATCH', '/settings', { messages: { processing_order: 'FIFO' } });
      phone.hold();
      for (const id of ['a', 'b', 'c']) await call('POST', '/messages', send(id, [`1380013800${id.charCodeAt(0) - 97}`]));
      phone.release();
      await phone.whenIdle();
      const ids = phone.books.sends.map((s) => s.messageId);
      expect(ids).toEqual(order === 'FIFO' ? ['a', 'b', 'c'] : ['c', 'b', 'a']);
      await fleet!.stop();
      fleet = undefined;
    }
  });

  it('a Pending message is cancelled by DELETE and never sent; a sent one cannot be', async () => {
    const { phone, call } = await start();
    phone.hold();
    await call('POST', '/messages', send('m1', ['13800138000']));
    expect((await call('DELETE', '/messages/m1')).status).toBe(204);
    phone.release();
    await call('POST', '/messages', send('m2', ['13900139000']));
    await phone.whenIdle();
    expect((await call('GET', '/messages/m1')).body.state).toBe('Cancelled');
    expect((await call('DELETE', '/messages/m2')).status).toBe(409);
    expect(phone.books.sends.map((s) => s.messageId)).toEqual(['m2']);
  });

  it('GET /messages filters by state and pages with X-Total-Count', async () => {
    const { phone, call } = await start();
    for (const id of ['a', 'b', 'c']) await call('POST', '/messages', send(id, ['13800138000']));
    await phone.whenIdle();
    phone.hold();
    await call('POST', '/messages', send('d', ['13800138000']));
    const delivered = await call('GET', '/messages?state=Delivered&limit=2&offset=0');
    expect(delivered.headers.get('x-total-count')).toBe('3');
    expect(delivered.body).toHaveLength(2);
    const pending = await call('GET', '/messages?state=Pending');
    expect(pending.body.map((m: { id: string }) => m.id)).toEqual(['d']);
    expect((await call('GET', '/messages?state=Nope')).status).toBe(400);
  });
});

describe('message state (MessageWithRecipients.kt)', () => {
  const r = (...states: string[]) => states.map((state) => ({ phoneNumber: '1', state, error: null })) as Parameters<typeof messageState>[0];
  it('any Pending > Cancelling > Cancelled > Processed; all Failed → Failed; all Delivered → Delivered; else Sent', () => {
    expect(messageState(r('Delivered', 'Pending'))).toBe('Pending');
    expect(messageState(r('Processed', 'Cancelled'))).toBe('Cancelled');
    expect(messageState(r('Sent', 'Processed'))).toBe('Processed');
    expect(messageState(r('Failed', 'Failed'))).toBe('Failed');
    expect(messageState(r('Delivered', 'Delivered'))).toBe('Delivered');
    expect(messageState(r('Delivered', 'Failed'))).toBe('Sent');
  });
});

describe('parts', () => {
  it('GSM text: 160 in one part, 153 a part beyond; other text: 70, then 67 a part', () => {
    expect(smsParts('a'.repeat(160))).toHaveLength(1);
    expect(smsParts('a'.repeat(161)).map((p) => p.length)).toEqual([153, 8]);
    expect(smsParts('€'.repeat(80))).toHaveLength(1); // two septets each
    expect(smsParts('€'.repeat(81))).toHaveLength(2);
    expect(smsParts('退'.repeat(70))).toHaveLength(1);
    expect(smsParts('退'.repeat(71)).map((p) => p.length)).toEqual([67, 4]);
    expect(smsParts('【汇云】'.concat('a'.repeat(100)))).toHaveLength(2);
  });
});
