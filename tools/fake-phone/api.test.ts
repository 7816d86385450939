import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePhones, type FakePhones } from './index.ts';
import { phoneClient } from './test-support.ts';

// The Local Server API's surface: auth, the read routes, settings, and POST /messages' validation (fact sheet §1, §8, §9).

let fleet: FakePhones;
let call: ReturnType<typeof phoneClient>;
beforeAll(async () => {
  fleet = await startFakePhones({ phones: 1 });
  call = phoneClient(fleet.phones[0]!);
});
afterAll(() => fleet.stop());

const text = (t = '您好') => ({ textMessage: { text: t } });

describe('auth', () => {
  it('answers 401 without Basic credentials or with a wrong password, and /health without any', async () => {
    const phone = fleet.phones[0]!;
    expect((await fetch(`${phone.url}/device`)).status).toBe(401);
    expect((await phoneClient(phone, 'wrong')('GET', '/device')).status).toBe(401);
    expect((await phoneClient(phone, 'wrong')('POST', '/messages', { ...text(), phoneNumbers: ['13800138000'] })).status).toBe(401);
    const health = await fetch(`${phone.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'pass' });
  });
});

describe('read routes and settings', () => {
  it('GET /device answers the phone with its SIM cards', async () => {
    const { status, body } = await call('GET', '/device');
    expect(status).toBe(200);
    expect(body).toEqual([{ id: fleet.phones[0]!.deviceId, name: 'Fake Phone 1', simCards: [expect.objectContaining({ simNumber: 1 })] }]);
  });

  it('settings: LIFO by default; PATCH keeps processing order and limits, refuses a wrong value, never reads back the signing key', async () => {
    const before = await call('GET', '/settings');
    expect(before.body.messages.processing_order).toBe('LIFO');
    expect(before.body.webhooks.signing_key).toBeUndefined();
    expect((await call('PATCH', '/settings', { messages: { processing_order: 'RANDOM' } })).status).toBe(400);
    const patched = await call('PATCH', '/settings', { messages: { processing_order: 'FIFO', limit_period: 'PerHour', limit_value: 100 } });
    expect(patched.status).toBe(200);
    expect(patched.body.messages).toMatchObject({ processing_order: 'FIFO', limit_period: 'PerHour', limit_value: 100 });
    expect((await call('GET', '/settings')).body.messages.processing_order).toBe('FIFO');
    expect((await call('PUT', '/settings', {})).status).toBe(404);
  });

  it('GET /messages/{id} of an unknown id is 404', async () => {
    expect((await call('GET', '/messages/nope')).status).toBe(404);
  });
});

describe('POST /messages validation', () => {
  const refused: [string, unknown, number][] = [
    ['no content', { phoneNumbers: ['13800138000'] }, 400],
    ['two contents', { ...text(), message: 'x', phoneNumbers: ['13800138000'] }, 400],
    ['an empty text', { textMessage: { text: '' }, phoneNumbers: ['13800138000'] }, 400],
    ['bad base64 data', { dataMessage: { data: '***', port: 53739 }, phoneNumbers: ['13800138000'] }, 400],
    ['no numbers', { ...text(), phoneNumbers: [] }, 400],
    ['101 numbers', { ...text(), phoneNumbers: Array.from({ length: 101 }, (_, i) => `1380013${String(i).padStart(4, '0')}`) }, 400],
    ['the same number twice', { ...text(), phoneNumbers: ['13800138000', '13800138000'] }, 409],
    ['an id of 37 characters', { ...text(), id: 'x'.repeat(37), phoneNumbers: ['13800138000'] }, 400],
    ['ttl and validUntil', { ...text(), ttl: 60, validUntil: '2099-01-01T00:00:00Z', phoneNumbers: ['13800138000'] }, 400],
    ['simNumber 4', { ...text(), simNumber: 4, phoneNumbers: ['13800138000'] }, 400],
    ['simNumber 0', { ...text(), simNumber: 0, phoneNumbers: ['13800138000'] }, 400],
    ['scheduleAt in the past', { ...text(), scheduleAt: '2020-01-01T00:00:00Z', phoneNumbers: ['13800138000'] }, 400],
    ['not JSON', '{oops', 400],
  ];
  it.each(refused)('refuses %s', async (_, body, status) => {
    const answer = await call('POST', '/messages', body);
    expect(answer.status).toBe(status);
    expect(typeof answer.body.message).toBe('string');
  });

  it('accepts a message (202, the message object), answers 409 to its id again, and takes the /message alias', async () => {
    const first = await call('POST', '/messages', { id: 'hy1a0', ...text(), phoneNumbers: ['13800138000', '+8613900139000'], ttl: 3600 });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({
      id: 'hy1a0', deviceId: fleet.phones[0]!.deviceId, state: 'Pending',
      recipients: [{ phoneNumber: '13800138000', state: 'Pending', error: null }, { phoneNumber: '+8613900139000', state: 'Pending', error: null }],
    });
    expect(Object.keys(first.body.states)).toEqual(['Pending']);
    expect((await call('POST', '/messages', { id: 'hy1a0', ...text('another'), phoneNumbers: ['13700137000'] })).status).toBe(409);
    const alias = await call('POST', '/message', { message: 'legacy', phoneNumbers: ['13700137000'] });
    expect(alias.status).toBe(202);
    expect(alias.body.id).toMatch(/^.{1,36}$/);
    expect((await call('GET', `/message/${alias.body.id}`)).status).toBe(200);
    const books = fleet.phones[0]!.books;
    expect(books.accepted).toBe(2);
    expect(books.conflicts).toBe(2); // the number given twice, the id given twice
  });
});

describe('webhook registrations', () => {
  it('takes https:// or http://127.0.0.1 only; the same id replaces; DELETE removes', async () => {
    expect((await call('POST', '/webhooks', { url: 'http://192.168.1.5/hook', event: 'sms:sent' })).status).toBe(400);
    expect((await call('POST', '/webhooks', { url: 'https://bridge.example/hook', event: 'sms:nope' })).status).toBe(400);
    const made = await call('POST', '/webhooks', { id: 'w1', url: 'https://bridge.example/hook', event: 'sms:sent' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ id: 'w1', url: 'https://bridge.example/hook', event: 'sms:sent' });
    expect((await call('POST', '/webhook', { id: 'w1', url: 'http://127.0.0.1:9/hook', event: 'sms:delivered' })).status).toBe(201);
    const listed = await call('GET', '/webhooks');
    expect(listed.body).toEqual([expect.objectContaining({ id: 'w1', url: 'http://127.0.0.1:9/hook', event: 'sms:delivered' })]);
    expect((await call('DELETE', '/webhooks/w1')).status).toBe(204);
    expect((await call('GET', '/webhooks')).body).toEqual([]);
  });
});
