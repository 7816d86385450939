import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakePhones, sumBooks, type FakePhones } from './index.ts';
import { phoneClient, startReceiver, until } from './test-support.ts';

// What tests of a bridge need from the fakes: a phone taken offline and brought back, and books to check
// "every number sent once" against.

let fleet: FakePhones | undefined;
afterEach(async () => {
  await fleet?.stop();
  fleet = undefined;
});
const canListen = (port: number) => new Promise<boolean>((resolve) => {
  const probe = net.createServer().once('error', () => resolve(false)).listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
});
/**
 * Two neighbouring ports free now, below the ephemeral range (32768–60999 here), where the suite's own listen(0)
 * servers and outgoing connections take theirs: one free port's neighbour there may be taken by the time it is used.
 */
async function freePortPair(): Promise<number> {
  for (let base = 21_000 + 2 * Math.floor(Math.random() * 4_000); base < 32_000; base += 2) {
    if ((await canListen(base)) && (await canListen(base + 1))) return base;
  }
  throw new Error('no two neighbouring ports free in 21000–32000');
}
const send = (id: string, phoneNumbers: string[]) => ({ id, textMessage: { text: '您好' }, phoneNumbers });

describe('offline', () => {
  it('refuse: the port is closed (the client cannot connect); back online on the same port with its messages', async () => {
    fleet = await startFakePhones();
    const phone = fleet.phones[0]!;
    const call = phoneClient(phone);
    await call('POST', '/messages', send('m1', ['13800138000']));
    const port = phone.port;
    await phone.goOffline('refuse');
    await expect(call('GET', '/messages/m1')).rejects.toThrow();
    await phone.goOnline();
    expect(phone.port).toBe(port);
    expect((await call('GET', '/messages/m1')).status).toBe(200);
  });

  it('hang: a request is taken and never answered; going online cuts it', async () => {
    fleet = await startFakePhones();
    const phone = fleet.phones[0]!;
    await phone.goOffline('hang');
    const pending = phoneClient(phone)('GET', '/health');
    await until(() => phone.server.hungRequests === 1);
    await phone.goOnline();
    await expect(pending).rejects.toThrow();
    expect((await fetch(`${phone.url}/health`)).status).toBe(200);
  });

  it('while offline the phone still sends what it holds, and its webhooks wait until it is back', async () => {
    fleet = await startFakePhones();
    const phone = fleet.phones[0]!;
    const call = phoneClient(phone);
    const receiver = await startReceiver();
    try {
      await call('POST', '/webhooks', { url: receiver.url, event: 'sms:delivered' });
      phone.hold();
      await call('POST', '/messages', send('m1', ['13800138000']));
      await phone.goOffline('refuse');
      phone.release();
      await until(() => phone.books.sends[0]?.state === 'Delivered');
      expect(phone.books.webhooks.posts).toBe(0);
      await phone.goOnline();
      await phone.whenIdle();
      expect(receiver.events('sms:delivered')).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});

describe('/__fake/ controls (for a fake in another process)', () => {
  it('read the books, inject a reply, switch Android\'s limit; behind the same auth', async () => {
    fleet = await startFakePhones();
    const phone = fleet.phones[0]!;
    const call = phoneClient(phone);
    expect((await phoneClient(phone, 'wrong')('GET', '/__fake/books')).status).toBe(401);
    expect((await call('POST', '/__fake/limit', { exceeded: true })).status).toBe(200);
    await call('POST', '/messages', send('m1', ['13800138000']));
    await phone.whenIdle();
    const reply = await call('POST', '/__fake/receive', { sender: '13800138000', text: 'TD' });
    expect(reply.status).toBe(201);
    expect((await call('POST', '/__fake/receive', { text: 'TD' })).status).toBe(400);
    const books = await call('GET', '/__fake/books');
    expect(books.body.summary).toMatchObject({ sends: 1, sendFailed: 1, replies: 1, unsubscribes: 1 });
    expect(books.body.sends[0]).toMatchObject({ messageId: 'm1', recipient: '13800138000', error: 'Send result: RESULT_ERROR_LIMIT_EXCEEDED' });
    expect((await call('GET', '/inbox')).body[0]).toMatchObject({ id: reply.body.id, sender: '13800138000', contentPreview: 'TD' });
  });
});

describe('books', () => {
  it('count each number handed to Android per phone and across phones; a number sent by two phones is repeated', async () => {
    fleet = await startFakePhones({ phones: 2 });
    const [a, b] = fleet.phones as [NonNullable<FakePhones['phones'][0]>, NonNullable<FakePhones['phones'][0]>];
    await phoneClient(a)('POST', '/messages', send('hy1a0', ['13800138000']));
    await phoneClient(a)('POST', '/messages', send('hy2a0', ['13900139000']));
    await phoneClient(a)('POST', '/messages', send('hy2a0', ['13900139000'])); // 409: not sent again
    await phoneClient(b)('POST', '/messages', send('hy3a0', ['13700137000']));
    await fleet.whenIdle();
    expect(a.books.timesSent('13900139000')).toBe(1);
    expect(a.books.summary()).toMatchObject({ accepted: 2, conflicts: 1, sends: 2, numbers: 2, repeated: [], delivered: 2 });
    expect(fleet.summary()).toMatchObject({ sends: 3, numbers: 3, repeated: [], sent: 3, delivered: 3 });
    expect(a.books.sends[0]).toMatchObject({ messageId: 'hy1a0', recipient: '13800138000', text: '您好', parts: 1, simNumber: 1, state: 'Delivered' });

    await phoneClient(b)('POST', '/messages', send('hy1a1', ['13800138000']));
    await fleet.whenIdle();
    expect(sumBooks([a.books, b.books]).repeated).toEqual(['13800138000']);
    expect(a.books.summary().repeated).toEqual([]);
  });

  it('portBase puts phone i on portBase + i', async () => {
    const free = await freePortPair();
    fleet = await startFakePhones({ phones: 2, portBase: free });
    expect(fleet.phones.map((p) => p.port)).toEqual([free, free + 1]);
  });
});
