import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakePhones, type FakePhones } from './index.ts';
import { phoneClient, startReceiver } from './test-support.ts';

// Webhooks as the app posts them (fact sheet §2, §9): signed, retried, once per part, sometimes twice or late.

let fleet: FakePhones | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
afterEach(async () => {
  await fleet?.stop();
  await receiver?.close();
  fleet = undefined;
  receiver = undefined;
});

async function setUp(options: Parameters<typeof startFakePhones>[0] = {}, answer?: (n: number) => number) {
  fleet = await startFakePhones(options);
  receiver = await startReceiver(answer);
  const phone = fleet.phones[0]!;
  const call = phoneClient(phone);
  for (const event of ['sms:sent', 'sms:delivered', 'sms:failed', 'sms:received']) {
    expect((await call('POST', '/webhooks', { id: event.replace(':', '-'), url: receiver.url, event })).status).toBe(201);
  }
  return { phone, call, receiver };
}
const send = (id: string, phoneNumbers: string[], text = '您好') => ({ id, textMessage: { text }, phoneNumbers });

describe('webhooks', () => {
  it('are signed: X-Signature = hex HMAC-SHA256(signing key, raw body + X-Timestamp), verifiable with node:crypto', async () => {
    const { phone, call, receiver } = await setUp();
    await call('POST', '/messages', send('m1', ['13800138000']));
    await phone.whenIdle();
    expect(receiver.received.map((r) => r.body.event)).toEqual(['sms:sent', 'sms:delivered']);
    for (const r of receiver.received) {
      const expected = createHmac('sha256', phone.signingKey).update(r.raw + r.timestamp).digest();
      expect(timingSafeEqual(Buffer.from(r.signature, 'hex'), expected)).toBe(true);
      expect(r.timestamp).toMatch(/^\d{10}$/);
      expect(r.body).toMatchObject({ webhookId: r.body.event.replace(':', '-'), deviceId: phone.deviceId, payload: { messageId: 'm1', recipient: '13800138000' } });
      // §9: by default no sender or simNumber
      expect(r.body.payload).not.toHaveProperty('sender');
      expect(r.body.payload).not.toHaveProperty('simNumber');
    }
    expect(receiver.events('sms:sent')[0]!.body.payload.partsCount).toBe(1);
  });

  it('a key set by PATCH /settings signs the next events', async () => {
    const { phone, call, receiver } = await setUp();
    await call('PATCH', '/settings', { webhooks: { signing_key: 'bridge-key-1' } });
    await call('POST', '/messages', send('m1', ['13800138000']));
    await phone.whenIdle();
    const r = receiver.received[0]!;
    expect(r.signature).toBe(createHmac('sha256', 'bridge-key-1').update(r.raw + r.timestamp).digest('hex'));
  });

  it('a non-2xx answer is retried (same event id) until taken; a receiver that never takes it is given up after retry_count', async () => {
    const { phone, call, receiver } = await setUp({ retryBaseMs: 1, retryCount: 3 }, (n) => (n < 2 ? 500 : 200));
    await call('POST', '/messages', { ...send('m1', ['13800138000']), withDeliveryReport: false });
    await phone.whenIdle();
    expect(receiver.posts()).toBe(3);
    expect(receiver.received).toHaveLength(1);
    expect(phone.books.webhooks).toMatchObject({ events: 1, posts: 3, retries: 2, gaveUp: 0 });

    await fleet!.stop();
    await receiver.close();
    const never = await setUp({ retryBaseMs: 1, retryCount: 3 }, () => 503);
    await never.call('POST', '/messages', { ...send('m1', ['13800138000']), withDeliveryReport: false });
    await never.phone.whenIdle();
    expect(never.receiver.posts()).toBe(4);
    expect(never.phone.books.webhooks).toMatchObject({ events: 1, posts: 4, retries: 3, gaveUp: 1 });
  });

  it('retry_count set by PATCH /settings bounds the retries', async () => {
    const { phone, call, receiver } = await setUp({ retryBaseMs: 1 }, () => 500);
    expect((await call('PATCH', '/settings', { webhooks: { retry_count: 1 } })).status).toBe(200);
    expect((await call('PATCH', '/settings', { webhooks: { retry_count: -1 } })).status).toBe(400);
    await call('POST', '/messages', { ...send('m1', ['13800138000']), withDeliveryReport: false });
    await phone.whenIdle();
    expect(receiver.posts()).toBe(2);
    expect(phone.books.webhooks).toMatchObject({ retries: 1, gaveUp: 1 });
  });

  it('a multipart message: one sms:sent with partsCount, sms:delivered once per part; sms:failed once per part too', async () => {
    const { phone, call, receiver } = await setUp();
    await call('POST', '/messages', send('m1', ['13800138000', '13900139000'], '您'.repeat(140))); // 3 parts
    await phone.whenIdle();
    expect(receiver.events('sms:sent').map((r) => r.body.payload.partsCount)).toEqual([3, 3]);
    const delivered = receiver.events('sms:delivered').map((r) => r.body.payload.recipient);
    expect(delivered.sort()).toEqual(['13800138000', '13800138000', '13800138000', '13900139000', '13900139000', '13900139000']);
    expect(new Set(receiver.events('sms:delivered').map((r) => r.body.id)).size).toBe(6);

    phone.setLimitExceeded(true);
    await call('POST', '/messages', send('m2', ['13700137000'], 'a'.repeat(200))); // 2 parts
    await phone.whenIdle();
    expect(receiver.events('sms:failed').map((r) => r.body.payload.reason)).toEqual([
      'Send result: RESULT_ERROR_LIMIT_EXCEEDED', 'Send result: RESULT_ERROR_LIMIT_EXCEEDED',
    ]);
  });

  it('duplicates: the same body (same event id) posted again', async () => {
    const { phone, call, receiver } = await setUp({ duplicateRate: 1 });
    await call('POST', '/messages', { ...send('m1', ['13800138000']), withDeliveryReport: false });
    await phone.whenIdle();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[0]!.body).toEqual(receiver.received[1]!.body);
    expect(phone.books.webhooks.duplicates).toBe(1);
  });

  it('out of order: a held-back sms:sent arrives after the sms:delivered that followed it', async () => {
    const { phone, call, receiver } = await setUp({ reorderRate: 1 });
    await call('POST', '/messages', send('m1', ['13800138000']));
    await phone.whenIdle();
    expect(receiver.received.map((r) => r.body.event)).toEqual(['sms:delivered', 'sms:sent']);
    expect(phone.books.webhooks.reordered).toBe(2);
  });

  it('withSender: payloads carry the SIM\'s number and simNumber', async () => {
    const { phone, call, receiver } = await setUp({ withSender: true });
    await call('POST', '/messages', { ...send('m1', ['13800138000']), withDeliveryReport: false });
    await phone.whenIdle();
    expect(receiver.received[0]!.body.payload).toMatchObject({ sender: phone.sims[0]!.phoneNumber, simNumber: 1 });
  });

  it('replies: sms:received {messageId, sender, message, receivedAt}, kept in GET /inbox; replyRate makes some, unsubscribeShare of them 退订 keywords', async () => {
    const { phone, call, receiver } = await setUp({ replyRate: 1, unsubscribeShare: 1 });
    const injected = phone.receive('+8613800138000', '退订');
    await call('POST', '/messages', send('m1', ['13900139000', '13700137000']));
    await phone.whenIdle();
    const received = receiver.events('sms:received').map((r) => r.body.payload);
    expect(received).toHaveLength(3);
    expect(received[0]).toEqual({ messageId: injected.id, sender: '+8613800138000', message: '退订', receivedAt: expect.any(String) });
    expect(received.slice(1).map((p) => p.sender).sort()).toEqual(['13700137000', '13900139000']);
    for (const p of received) expect(['T', 'TD', '退订']).toContain(p.message);
    const inbox = await call('GET', '/inbox');
    expect(inbox.headers.get('x-total-count')).toBe('3');
    expect(inbox.body.map((e: { sender: string }) => e.sender)).toContain('+8613800138000');
    expect(inbox.body[0]).toMatchObject({ type: 'SMS', contentPreview: expect.any(String), createdAt: expect.any(String) });
    expect(phone.books.summary()).toMatchObject({ replies: 3, unsubscribes: 3 });
  });
});
