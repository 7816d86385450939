// The server's time zone must not matter: Alipay reads every time as Beijing time.
process.env.TZ = 'UTC';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayContract, startReceiver } from '../contract-suite.ts';
import type { ClosedNotification, PaidNotification } from '../gateway.ts';
import { alipayHarness } from './harness.ts';

gatewayContract('alipay', () => alipayHarness());

describe('Alipay specifics (TZ=UTC)', () => {
  let h: Awaited<ReturnType<typeof alipayHarness>>;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    h = await alipayHarness();
    rx = await startReceiver(h.gateway);
  });
  afterAll(async () => {
    await h?.stop();
    await rx?.close();
  });
  const create = async (amount: number) => {
    const orderNo = `T${Date.now()}${Math.random().toString(16).slice(2, 8)}`;
    await h.gateway.createPayment(h.account, { orderNo, amount, subject: '雪碧', expireAt: Date.now() + 60_000, notifyUrl: `${rx.origin}/gateway/alipay/notify/${orderNo}` });
    return orderNo;
  };

  it('stamps requests in Beijing time while the process runs in UTC', async () => {
    expect(new Date().getTimezoneOffset()).toBe(0);
    await create(100);
    const stamped = h.fake.timestamps.at(-1)!;
    const beijing = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
    expect(stamped.slice(0, 16)).toBe(beijing);
  });

  it('an unscanned QR does not exist at Alipay: query and close answer closed, not an error', async () => {
    const orderNo = await create(100);
    expect(await h.gateway.query(h.account, orderNo)).toEqual({ state: 'closed' });
    expect(await h.gateway.close(h.account, orderNo)).toEqual({ state: 'closed' });
  });

  it('a scanned, unpaid trade exists: query says unpaid, close closes it, and it stays closed', async () => {
    const orderNo = await create(100);
    const page = await fetch(`${h.fake.baseUrl}/pay/${orderNo}`); // the customer scans: the trade now exists
    expect(page.status).toBe(200);
    expect(await h.gateway.query(h.account, orderNo)).toEqual({ state: 'unpaid' });
    expect(await h.gateway.close(h.account, orderNo)).toEqual({ state: 'closed' });
    expect(h.fake.books.payments.get(orderNo)?.status).toBe('closed');
    expect(await h.fake.pay(orderNo)).toBeUndefined(); // a closed trade takes no payment
  });

  it('reads the pay time of a notification as Beijing time', async () => {
    const orderNo = await create(100);
    const before = Date.now();
    await h.pay(orderNo);
    const paid = (await h.gateway.verifyNotification(h.account, (await rx.next('notify', orderNo, 0)).body, {})) as PaidNotification;
    expect(paid.payTime).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(paid.payTime).toBeLessThanOrEqual(Date.now());
  });

  it('after a full refund Alipay notifies TRADE_CLOSED: verified, and reported as no payment (it must not touch money)', async () => {
    const orderNo = await create(300);
    await h.pay(orderNo);
    const from = rx.received.length;
    expect((await h.gateway.refund(h.account, { orderNo, refundNo: `R${orderNo}`, amount: 300 })).state).toBe('success');
    const closed = await rx.next('notify', orderNo, from);
    expect(new URLSearchParams(closed.body).get('trade_status')).toBe('TRADE_CLOSED');
    const told = (await h.gateway.verifyNotification(h.account, closed.body, {})) as ClosedNotification;
    expect(told).toMatchObject({ closed: true, orderNo });
  });

  it("verifies a value holding '%' (checkNotifySign V1 threw on it) and answers the literal text success", async () => {
    const orderNo = await create(100);
    await h.gateway.createPayment(h.account, { orderNo: `${orderNo}P`, amount: 100, subject: '100% 果汁', expireAt: Date.now() + 60_000, notifyUrl: `${rx.origin}/gateway/alipay/notify/${orderNo}P` });
    await h.pay(`${orderNo}P`);
    const r = await rx.next('notify', `${orderNo}P`, 0);
    expect(new URLSearchParams(r.body).get('subject')).toBe('100% 果汁');
    await expect(Promise.resolve(h.gateway.verifyNotification(h.account, r.body, {}))).resolves.toMatchObject({ orderNo: `${orderNo}P`, amount: 100 });
    expect(h.gateway.acknowledgement(true, '').body).toBe('success');
  });
});
