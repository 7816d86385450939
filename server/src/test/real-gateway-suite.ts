import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, OrderStatus, PayType, payConfigSecretFields } from '@huiyun/contract';
import type { FakeBooks } from '../../../tools/fake-gateways/books.ts';
import { startTestApp, type TestApp } from './harness.ts';
import { type PayAccount, payConfigPurpose } from '../modules/pay/gateways/index.ts';
import { newTerminalKey, sealTerminalKey } from '../modules/pay/machines/index.ts';
import { signedHeaders, type Machine } from './terminal-fixture.ts';
import type { Payments } from '../modules/pay/orders/index.ts';

// A sale through each real gateway against its local fake (tools/fake-gateways), on the database of the
// run (SQLite or PostgreSQL), through the product's own HTTP routes: the server listens on loopback and
// PUBLIC_BASE_URL points at it, so the fake delivers its notifications to /gateway/<gateway>/notify/<orderNo>
// (and /refund-notify/<refundNo>) as the real service would.

export type Answer = { status: number; text: string };
export type FakeOf = {
  books: FakeBooks;
  pay: (orderNo: string, o?: { afterClose?: boolean }) => Promise<Answer | undefined>;
  notifyPaid: (orderNo: string, o?: { amount?: number; appid?: string; signature?: 'forged' | 'signtest' }) => Promise<Answer>;
  notifyRefund?: (refundNo: string, o?: { signature?: 'forged' }) => Promise<Answer>;
  close: () => Promise<void>;
};
export type RealGatewayHarness = {
  gateway: string;
  payType: number;
  fake: FakeOf;
  account: PayAccount;
  /** The settings pointing the server at the fake. */
  env: Record<string, string>;
  /** After the app is built (e.g. the fake's CA for WeChat APIv2). */
  adapt?: (rt: Payments) => void;
  /** WeChat v3's probe notification exists. */
  signtest: boolean;
  /** The gateway's acknowledgement, as it reads it (success or not). */
  accepted: (answer: Answer) => boolean;
};
/** What the gateway does: refund notifications (Alipay has none for a partial refund, nor a refund notify URL). */
export type Capabilities = { refundNotifications: boolean };


export function realGatewaySuite(name: string, can: Capabilities, start: () => Promise<RealGatewayHarness>) {
  describe(`a sale through ${name} (its fake, the product's routes)`, () => {
    let h: RealGatewayHarness;
    let t: TestApp;
    let rt: Payments;
    let configId: number;
    let machine: Machine;

    beforeAll(async () => {
      h = await start();
      // a machine's dispense report may take an hour here: the sweeps below jump six minutes ahead
      t = await startTestApp({ PAY_DISPENSE_TIMEOUT_SECONDS: '3600', ...h.env });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      // the notify URLs are built from PUBLIC_BASE_URL: this test server's own address, known once it listens
      (t.ctx.config as { publicBaseUrl?: string }).publicBaseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      rt = t.payments;
      h.adapt?.(rt);
      const now = Date.now();
      const a = h.account;
      const sealed = Object.fromEntries(payConfigSecretFields.map((f) => [f, a.secrets[f] ? t.ctx.secrets.seal(payConfigPurpose(f), a.secrets[f]) : '']));
      configId = (await t.ctx.db.insertInto('pay_config').values({
        deptId: 1, name: `测试-${name}`, payType: h.payType, gateway: h.gateway, partner: a.partner, appid: a.appid, subMchId: a.subMchId, signType: a.signType,
        sellerUserId: a.sellerUserId, certSerialNo: a.certSerialNo, platformPubKeyId: a.platformPubKeyId, platformPubKey: a.platformPubKey, alipayPublicKey: a.alipayPublicKey,
        ...sealed, addTime: now, editTime: now,
      }).returning('id').executeTakeFirstOrThrow()).id;
      const key = newTerminalKey();
      const machineNo = `RG-${randomBytes(3).toString('hex')}`;
      const { machineId } = await t.ctx.db.insertInto('pay_machine').values({ machineNo, machineName: machineNo, deptId: 1, status: 1, terminalKey: sealTerminalKey(t.ctx.secrets, key), lastSeenAt: null, addTime: now, editTime: now })
        .returning('machineId').executeTakeFirstOrThrow();
      await t.ctx.db.insertInto('pay_aisle').values({ machineId, aisleNo: 'A1', layer: 1, aisleColumn: 1, goodsName: '矿泉水', price: 250, capacity: 50, stock: 50, status: 1, addTime: now, editTime: now }).execute();
      await t.ctx.db.insertInto('pay_terminal_config').values({ deptId: 1, machineNo, payType: h.payType, configId, configName: name, payOpen: 'T', addTime: now, editTime: now }).execute();
      machine = { machineId, machineNo, key };
    });
    afterAll(async () => {
      await rt?.stop();
      await t?.close();
      await h?.fake.close();
    });

    const order = (orderNo: string) => t.ctx.db.selectFrom('pay_order').selectAll().where('orderNo', '=', orderNo).executeTakeFirstOrThrow();
    const refundsOf = (orderId: number) => t.ctx.db.selectFrom('pay_order').selectAll().where('parentId', '=', orderId).orderBy('orderId').execute();
    const alarmsOf = async (orderNo: string) => (await t.ctx.db.selectFrom('pay_alarm').select('kind').where('orderNo', '=', orderNo).execute()).map((a) => a.kind);
    /** A new sale on the machine; the previous one must be settled (dispensed or closed) first. */
    const sale = async () => {
      const raw = JSON.stringify({ aisleNo: 'A1', payType: h.payType });
      const answer = await t.app.inject({ method: 'POST', url: '/terminal/v1/order/create', headers: { 'content-type': 'application/json', ...signedHeaders(machine, '/order/create', raw) }, payload: raw });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json().data as { orderNo: string; codeUrl: string; amount: string };
    };
    /** The machine reports the goods out, so the next sale may start. */
    const dispense = async (orderNo: string) => {
      const raw = JSON.stringify({ orderNo, success: true });
      const answer = await t.app.inject({ method: 'POST', url: '/terminal/v1/order/dispense', headers: { 'content-type': 'application/json', ...signedHeaders(machine, '/order/dispense', raw) }, payload: raw });
      expect(answer.statusCode, answer.body).toBe(200);
    };
    const later = async <T>(fn: () => Promise<T>) => {
      t.clock.advance(6 * 60_000);
      try {
        return await fn();
      } finally {
        t.clock.advance(-6 * 60_000);
      }
    };
    const refund = (orderId: number, amount: number, requestKey = randomBytes(8).toString('hex')) => rt.refundOrder('all', { orderId, amount, reason: '测试退款', requestKey });

    it('paid: the customer pays at the fake, its notification moves the order once; forged, wrong-amount, foreign-app and repeated ones change nothing', async () => {
      const s = await sale();
      expect(s.amount).toBe('2.50');
      const before = await order(s.orderNo);
      expect(before.orderStatus).toBe(OrderStatus.processing);
      // not paid yet: altered notifications are refused and write nothing (an alarm for the signed mismatches only)
      await h.fake.books.pay(s.orderNo, 'TX-NOT-NOTIFIED', Date.now()); // paid at the fake, its notification not sent yet
      expect(h.accepted(await h.fake.notifyPaid(s.orderNo, { signature: 'forged' }))).toBe(false);
      if (h.signtest) expect(h.accepted(await h.fake.notifyPaid(s.orderNo, { signature: 'signtest' }))).toBe(false);
      expect(await alarmsOf(s.orderNo)).toEqual([]);
      expect(h.accepted(await h.fake.notifyPaid(s.orderNo, { amount: 1 }))).toBe(false);
      expect(await alarmsOf(s.orderNo)).toEqual(['notifyMismatch']);
      expect(h.accepted(await h.fake.notifyPaid(s.orderNo, { appid: 'wxforeign0000000' }))).toBe(false);
      expect(await order(s.orderNo)).toEqual(before);
      // the right one, twice
      expect(h.accepted(await h.fake.notifyPaid(s.orderNo))).toBe(true);
      const paid = await order(s.orderNo);
      expect(paid).toMatchObject({ orderStatus: OrderStatus.paid, transId: 'TX-NOT-NOTIFIED' });
      expect(h.accepted(await h.fake.notifyPaid(s.orderNo))).toBe(true);
      expect(await order(s.orderNo)).toEqual(paid);
      await dispense(s.orderNo);
    });

    it('abandoned: the sweeper closes it at the gateway; a payment after close is refunded automatically', async () => {
      const s = await sale();
      const atGateway = h.fake.books.payments.get(s.orderNo)!;
      expect(atGateway.status).toBe('open'); // the sale created it at the gateway
      atGateway.scanned = true; // the customer scanned and walked away: the trade exists at every gateway (Alipay's only once scanned)
      const swept = await later(() => rt.sweepOrders());
      expect(swept).toMatchObject({ claimed: 1, closed: 1 });
      expect((await order(s.orderNo)).orderStatus).toBe(OrderStatus.timedOut);
      expect(atGateway.status).toBe('closed'); // closed at the gateway, not only in the database
      // the customer still pays (the gateway let it through): recorded, acknowledged, given back
      expect(h.accepted((await h.fake.pay(s.orderNo, { afterClose: true }))!)).toBe(true);
      await rt.settled();
      const o = await order(s.orderNo);
      expect(o).toMatchObject({ orderStatus: OrderStatus.timedOut, refundNeeded: 0, refundedAmount: 250, reservedAmount: 0 });
      expect((await refundsOf(o.orderId)).map((r) => [r.orderStatus, r.payAmount])).toEqual([[OrderStatus.refunded, -250]]);
      expect(h.fake.books.payments.get(s.orderNo)?.refunded).toBe(250);
      expect(await alarmsOf(s.orderNo)).toEqual(['latePayment']);
    });

    it('the sweeper settles an order whose notification never came (asks the gateway: paid)', async () => {
      const s = await sale();
      h.fake.books.pay(s.orderNo, 'TX-SILENT', Date.now());
      expect(await later(() => rt.sweepOrders())).toMatchObject({ claimed: 1, paid: 1 });
      expect(await order(s.orderNo)).toMatchObject({ orderStatus: OrderStatus.paid, transId: 'TX-SILENT' });
      await dispense(s.orderNo);
    });

    it('refunds: partial, refused by the gateway, then the rest; refund notifications settle once', async () => {
      const s = await sale();
      expect(h.accepted((await h.fake.pay(s.orderNo))!)).toBe(true);
      await dispense(s.orderNo);
      const { orderId } = await order(s.orderNo);
      const first = await refund(orderId, 100);
      expect(first.refund.orderStatus).toBe(OrderStatus.refunded);
      h.fake.books.refuseRefunds = true;
      try {
        expect((await refund(orderId, 150)).refund.orderStatus).toBe(OrderStatus.refundFailed);
      } finally {
        h.fake.books.refuseRefunds = false;
      }
      expect(await order(s.orderNo)).toMatchObject({ refundedAmount: 100, reservedAmount: 0 });
      const rest = await refund(orderId, 150);
      expect(rest.refund.orderStatus).toBe(OrderStatus.refunded);
      await rt.settled();
      expect(await order(s.orderNo)).toMatchObject({ refundedAmount: 250, reservedAmount: 0 });
      expect(h.fake.books.payments.get(s.orderNo)?.refunded).toBe(250);
      if (can.refundNotifications) {
        // the gateway's word again (a repeat) is acknowledged and moves no money
        expect(h.accepted(await h.fake.notifyRefund!(rest.refund.orderNo))).toBe(true);
        expect(await order(s.orderNo)).toMatchObject({ refundedAmount: 250, reservedAmount: 0 });
      }
    });

    it.runIf(can.refundNotifications)('a refund notification moves a refund left under way (12) to 退款成功, once; a forged one is refused', async () => {
      const notifyRefund = h.fake.notifyRefund!;
      const s = await sale();
      expect(h.accepted((await h.fake.pay(s.orderNo))!)).toBe(true);
      await dispense(s.orderNo);
      const { orderId } = await order(s.orderNo);
      // the gateway takes the refund but answers "processing" (as WeChat does for most refunds)
      const gateway = rt.gateways.get(h.gateway)!;
      const real = gateway.refund.bind(gateway);
      gateway.refund = async (config, input) => (await real(config, { ...input, notifyUrl: undefined }), { state: 'processing' });
      let pending;
      try {
        pending = (await refund(orderId, 250)).refund;
      } finally {
        delete (gateway as { refund?: unknown }).refund;
      }
      expect(pending.orderStatus).toBe(OrderStatus.refunding);
      h.fake.books.refunds.get(pending.orderNo)!.notifyUrl = `${t.ctx.config.publicBaseUrl}/gateway/${h.gateway}/refund-notify/${pending.orderNo}`;
      if (h.gateway === 'wechat_v3') expect(h.accepted(await notifyRefund(pending.orderNo, { signature: 'forged' }))).toBe(false);
      expect((await order(pending.orderNo)).orderStatus).toBe(OrderStatus.refunding);
      if (gateway.confirmsRefundByQuery) {
        // an unsigned notification (WeChat APIv2: AES only) is believed once the gateway's query confirms it
        gateway.queryRefund = async () => ({ state: 'processing' });
        try {
          expect(h.accepted(await notifyRefund(pending.orderNo))).toBe(true);
        } finally {
          delete (gateway as { queryRefund?: unknown }).queryRefund;
        }
        expect((await order(pending.orderNo)).orderStatus).toBe(OrderStatus.refunding);
      }
      expect(h.accepted(await notifyRefund(pending.orderNo))).toBe(true);
      expect(await order(pending.orderNo)).toMatchObject({ orderStatus: OrderStatus.refunded });
      expect(await order(s.orderNo)).toMatchObject({ refundedAmount: 250, reservedAmount: 0 });
      expect(h.accepted(await notifyRefund(pending.orderNo))).toBe(true);
      expect(await order(s.orderNo)).toMatchObject({ refundedAmount: 250, reservedAmount: 0 });
    });

    it('bad input on the notify routes: a clear 4xx, never a 5xx, nothing written', async () => {
      const count = async () => Number((await t.ctx.db.selectFrom('pay_order').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const alarms = async () => Number((await t.ctx.db.selectFrom('pay_alarm').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const [orders, alarmCount] = [await count(), await alarms()];
      const g = h.gateway;
      const cases: { url: string; type?: string; body: string }[] = [
        { url: `/gateway/${g}/notify/T2026NOSUCHORDER`, body: 'x' },
        { url: `/gateway/${g}/notify/${'9'.repeat(80)}`, body: '' },
        { url: `/gateway/${g}/notify/%00abc`, body: '{}' },
        { url: `/gateway/${g}/notify/T1`, type: 'text/xml', body: '<xml><a>' },
        { url: `/gateway/${g}/notify/T1`, type: 'application/x-www-form-urlencoded', body: '%%%=&&' },
        { url: `/gateway/${g}/notify/T1`, type: 'image/png', body: 'x' },
        { url: `/gateway/${g}/refund-notify/T2026NOSUCHR1`, body: '{}' },
        { url: `/gateway/${g}/refund-notify/%00`, body: '{}' },
        { url: '/gateway/unionpay/notify/T1', body: '{}' },
        { url: '/gateway/unionpay/refund-notify/T1', body: '{}' },
      ];
      for (const c of cases) {
        const answer = await t.app.inject({ method: 'POST', url: c.url, headers: { 'content-type': c.type ?? 'application/json' }, payload: c.body });
        expect(answer.statusCode, c.url).toBeLessThan(500);
        expect(h.accepted({ status: answer.statusCode, text: answer.body }), c.url).toBe(false);
      }
      expect([await count(), await alarms()]).toEqual([orders, alarmCount]);
    });

    it('a 支付配置 id out of the integer range in the notify URL: 400 and a Chinese message, never a 500; refund numbers of digits likewise', async () => {
      const g = h.gateway;
      const orderNo = 'T2026112810000000ABCDEF12';
      const types = ['application/json', 'text/xml', 'application/x-www-form-urlencoded'];
      for (const configId of ['2147483648', '4294967296', '9999999999']) {
        for (const type of types) {
          const answer = await t.app.inject({ method: 'POST', url: `/gateway/${g}/config/${configId}/notify/${orderNo}`, headers: { 'content-type': type }, payload: type === 'text/xml' ? '<xml></xml>' : '{}' });
          expect(answer.statusCode, `${configId} ${type}`).toBe(400);
          expect(answer.body).toBe(messages.terminal.notifyBadConfigId);
        }
        const refund = await t.app.inject({ method: 'POST', url: `/gateway/${g}/refund-notify/${configId}`, headers: { 'content-type': 'application/json' }, payload: '{}' });
        expect(refund.statusCode, `refund-notify ${configId}`).toBeLessThan(500);
        expect(h.accepted({ status: refund.statusCode, text: refund.body })).toBe(false);
      }
    });
  });
}

export const payTypeOf = { wechat: PayType.wechat, alipay: PayType.alipay };
