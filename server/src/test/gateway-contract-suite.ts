import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayVerifyError, type GatewayConfig, type PaidNotification, type PayAccount, type PaymentGateway, type RefundNotification } from '../modules/pay/gateways/index.ts';

// The one contract every gateway passes at the gateway level, each against its local fake
// (tools/fake-gateways): create, query, close, refund (partial, full, refused, retried), refund query,
// the paid notification verified on its raw bytes, a forged or altered one refused, the day's bill, 检测
// (probe) valid with the right keys.
// Notifications reach a loopback receiver at /gateway/<gateway>/notify/<orderNo> (refunds:
// /refund-notify/<refundNo>), which answers with the gateway's own acknowledgement.

export type NotifyOverrides = { amount?: number; appid?: string; mchid?: string; signature?: 'forged' | 'signtest' };
export type ContractHarness<C extends GatewayConfig> = {
  gateway: PaymentGateway<C>;
  account: C;
  /** The customer pays at the fake (its page's button); the fake then notifies. */
  pay: (orderNo: string) => Promise<unknown>;
  /** The fake sends the paid notification again, altered for a test. */
  notifyPaid: (orderNo: string, o?: NotifyOverrides) => Promise<unknown>;
  stop: () => Promise<void>;
};

type Received = { kind: 'notify' | 'refund-notify'; no: string; body: string; headers: Record<string, string | string[] | undefined> };

export async function startReceiver(gateway: PaymentGateway<any>) {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const m = /^\/gateway\/[^/]+\/(notify|refund-notify)\/([^/?]+)/.exec(req.url ?? '');
      if (m) received.push({ kind: m[1] as Received['kind'], no: decodeURIComponent(m[2]!), body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      const ack = gateway.acknowledgement(true, 'OK');
      res.writeHead(ack.status ?? 200, { 'content-type': ack.contentType });
      res.end(ack.body);
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin, received,
    /** The next notification of `kind` for `no` that arrives after `from` were received. */
    async next(kind: Received['kind'], no: string, from: number): Promise<Received> {
      for (;;) {
        const hit = received.slice(from).find((r) => r.kind === kind && r.no === no);
        if (hit) return hit;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

const beijingToday = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);

/** What a gateway does beyond the common contract, known when the tests are defined so a case it does not apply
 * to is reported as skipped, by name, rather than passing without checking anything. */
export type ContractCapabilities = { /** The gateway notifies refunds (WeChat). */ refundNotifications: boolean };

export function gatewayContract<C extends GatewayConfig>(name: string, can: ContractCapabilities, start: (notifyOrigin: string) => Promise<ContractHarness<C>>) {
  describe(`gateway contract: ${name}`, () => {
    let h: ContractHarness<C>;
    let rx: Awaited<ReturnType<typeof startReceiver>>;
    const paidNos: string[] = [];

    beforeAll(async () => {
      let gateway: PaymentGateway<any> | undefined;
      rx = await startReceiver({ acknowledgement: (ok: boolean, m: string) => gateway!.acknowledgement(ok, m) } as PaymentGateway<any>);
      h = await start(rx.origin);
      gateway = h.gateway;
    });
    afterAll(async () => {
      await h?.stop();
      await rx?.close();
    });

    const newOrderNo = () => `T${Date.now()}${randomBytes(3).toString('hex')}`;
    const create = async (amount: number) => {
      const orderNo = newOrderNo();
      const { codeUrl } = await h.gateway.createPayment(h.account, {
        orderNo, amount, subject: '可乐 330ml', expireAt: Date.now() + 300_000, notifyUrl: `${rx.origin}/gateway/${h.gateway.name}/notify/${orderNo}`,
      });
      return { orderNo, codeUrl };
    };
    const payAndReceive = async (orderNo: string) => {
      const from = rx.received.length;
      await h.pay(orderNo);
      return rx.next('notify', orderNo, from);
    };
    // a verifier may throw at once or reject: both are a refusal
    const verifying = (body: string, headers: Received['headers']) => Promise.resolve().then(() => h.gateway.verifyNotification(h.account, body, headers));
    const verify = async (r: Received) => (await verifying(r.body, r.headers)) as PaidNotification;

    it('检测: one harmless signed call with the right keys answers valid, check by check, and no secret', async () => {
      // every gateway has 检测; a gateway without it fails here rather than passing unchecked
      expect(h.gateway.probe).toBeTypeOf('function');
      const result = await h.gateway.probe!(h.account);
      expect(result.checks.length).toBeGreaterThan(0);
      expect(result.checks.filter((c) => !c.ok)).toEqual([]);
      expect(result.ok).toBe(true);
      const said = JSON.stringify(result);
      const secrets = Object.values((h.account as Partial<PayAccount>).secrets ?? {}).filter((v) => v.length >= 8);
      expect(secrets.filter((v) => said.includes(v))).toEqual([]);
    });

    it('creates a payment with a code url; not paid before the customer pays', async () => {
      const { orderNo, codeUrl } = await create(350);
      expect(codeUrl).toMatch(/^\S+$/);
      expect(['unpaid', 'closed']).toContain((await h.gateway.query(h.account, orderNo)).state);
    });

    it('the customer pays: the notification verifies on its raw bytes and says what the order module cross-checks; query agrees', async () => {
      const { orderNo } = await create(350);
      const paid = await verify(await payAndReceive(orderNo));
      expect(paid).toMatchObject({ orderNo, amount: 350, mchId: h.account.partner, appId: h.account.appid });
      expect(paid.transId).not.toBe('');
      expect(Math.abs(paid.payTime - Date.now())).toBeLessThan(600_000);
      const state = await h.gateway.query(h.account, orderNo);
      expect(state).toMatchObject({ state: 'paid', transId: paid.transId, amount: 350 });
      paidNos.push(orderNo);
    });

    it('a forged notification, and one with any byte of its body altered, are refused', async () => {
      const { orderNo } = await create(120);
      const real = await payAndReceive(orderNo);
      let from = rx.received.length;
      await h.notifyPaid(orderNo, { signature: 'forged' });
      const forged = await rx.next('notify', orderNo, from);
      await expect(verifying(forged.body, forged.headers)).rejects.toBeInstanceOf(GatewayVerifyError);
      const i = real.body.indexOf('1') >= 0 ? real.body.indexOf('1') : 5;
      const altered = `${real.body.slice(0, i)}${real.body[i] === '1' ? '2' : 'x'}${real.body.slice(i + 1)}`;
      await expect(verifying(altered, real.headers)).rejects.toBeInstanceOf(GatewayVerifyError);
      // a repeat of the real one still verifies to the same payment (the order module makes it idempotent)
      from = rx.received.length;
      await h.notifyPaid(orderNo);
      expect((await verify(await rx.next('notify', orderNo, from))).transId).toBe((await verify(real)).transId);
    });

    it('a wrong-amount or foreign-appid notification is signed, and says so for the order module to refuse', async () => {
      const { orderNo } = await create(200);
      await payAndReceive(orderNo);
      let from = rx.received.length;
      await h.notifyPaid(orderNo, { amount: 1 });
      expect(await verify(await rx.next('notify', orderNo, from))).toMatchObject({ orderNo, amount: 1 });
      from = rx.received.length;
      await h.notifyPaid(orderNo, { appid: 'FOREIGN-APP' });
      expect((await verify(await rx.next('notify', orderNo, from))).appId).toBe('FOREIGN-APP');
    });

    it('closes an unpaid payment; the close holds', async () => {
      const { orderNo } = await create(150);
      expect((await h.gateway.close(h.account, orderNo)).state).toBe('closed');
      expect((await h.gateway.query(h.account, orderNo)).state).not.toBe('paid');
    });

    it('closes a payment it never created (a create that never reached it: the server died first) as closed, so the order can settle', async () => {
      expect((await h.gateway.close(h.account, newOrderNo())).state).toBe('closed');
    });

    it('refunds partly, then the rest; a retried refund number is not paid twice; too much is refused; refund query agrees', async () => {
      const { orderNo } = await create(500);
      await payAndReceive(orderNo);
      const first = `R${newOrderNo()}`;
      const second = `R${newOrderNo()}`;
      const from = rx.received.length;
      expect((await h.gateway.refund(h.account, { orderNo, refundNo: first, amount: 200 })).state).toBe('success');
      expect((await h.gateway.refund(h.account, { orderNo, refundNo: first, amount: 200 })).state).toBe('success'); // the same refund, retried
      expect((await h.gateway.queryRefund(h.account, first, orderNo)).state).toBe('success');
      expect((await h.gateway.refund(h.account, { orderNo, refundNo: `R${newOrderNo()}`, amount: 301 })).state).toBe('failed');
      expect((await h.gateway.refund(h.account, { orderNo, refundNo: second, amount: 300 })).state).toBe('success');
      expect((await h.gateway.queryRefund(h.account, `R${newOrderNo()}`, orderNo)).state).toBe('unknown');
      // a gateway tells refunds only to the notify URL the refund named (none given here): nothing arrives
      expect(rx.received.slice(from).filter((r) => r.kind === 'refund-notify')).toEqual([]);
      paidNos.push(orderNo);
    });

    it("today's bill has every payment and refund in integer fen; a day without trades is an empty bill", async () => {
      expect(h.gateway.downloadBill).toBeTypeOf('function');
      const bill = await h.gateway.downloadBill!(h.account, beijingToday());
      const payments = bill.rows.filter((r) => r.kind === 'payment');
      for (const orderNo of paidNos) expect(payments.find((r) => r.orderNo === orderNo)).toBeDefined();
      expect(payments.find((r) => r.orderNo === paidNos[0])?.amountFen).toBe(350);
      const refunds = bill.rows.filter((r) => r.kind === 'refund' && r.orderNo === paidNos[1]);
      expect(refunds.map((r) => r.amountFen).sort()).toEqual([200, 300]);
      expect(refunds.every((r) => r.refundNo?.startsWith('R') && r.gatewayTradeNo !== '')).toBe(true);
      expect(bill.rows.every((r) => Number.isSafeInteger(r.amountFen) && r.amountFen > 0 && Math.abs(r.at - Date.now()) < 86_400_000)).toBe(true);
      expect(await h.gateway.downloadBill!(h.account, '2020-01-01')).toEqual({ day: '2020-01-01', rows: [] });
    });

    it.runIf(!can.refundNotifications)(`${name} sends no refund notifications: it has no verifier for them`, () => {
      expect(h.gateway.verifyRefundNotification).toBeUndefined();
    });

    const noRefundNotifications = can.refundNotifications ? '' : ` (skipped: ${name} sends no refund notifications)`;
    it.skipIf(!can.refundNotifications)(`a refund notification verifies; forged is refused${noRefundNotifications}`, async () => {
      expect(h.gateway.verifyRefundNotification).toBeTypeOf('function');
      const orderNo = paidNos[0]!;
      const refundNo = `R${newOrderNo()}`;
      const from = rx.received.length;
      await h.gateway.refund(h.account, { orderNo, refundNo, amount: 50, notifyUrl: `${rx.origin}/gateway/${h.gateway.name}/refund-notify/${refundNo}` });
      const r = await rx.next('refund-notify', refundNo, from);
      const told: RefundNotification = await h.gateway.verifyRefundNotification!(h.account, r.body, r.headers);
      expect(told).toMatchObject({ refundNo, orderNo, amount: 50, state: 'success' });
      // its signed or encrypted part scrambled (every long base64 run reversed)
      const forged = r.body.replace(/[A-Za-z0-9+/]{40,}={0,2}/g, (m) => [...m].reverse().join(''));
      expect(forged).not.toBe(r.body);
      await expect(h.gateway.verifyRefundNotification!(h.account, forged, r.headers)).rejects.toBeInstanceOf(GatewayVerifyError);
    });
  });
}
