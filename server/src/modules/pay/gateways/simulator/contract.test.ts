import { randomBytes } from 'node:crypto';
import { afterAll } from 'vitest';
import { PayType } from '@huiyun/contract';
import { startTestApp, type TestApp } from '../../../../test/harness.ts';
import { gatewayContract, type NotifyOverrides } from '../../../../test/gateway-contract-suite.ts';
import type { PayAccount } from '../gateway.ts';
import { SimulatorGateway } from './gateway.ts';
import { SimulatedPlatform } from './platform.ts';

// The simulator through the same contract every gateway passes, its remote side (the simulated platform)
// on the test database (its books are pay_sim_payment / pay_sim_refund): its notifications go to the
// suite's loopback receiver.

let t: TestApp | undefined;
afterAll(async () => {
  await t?.close();
});

gatewayContract('simulator', { refundNotifications: false }, async () => {
  t = await startTestApp();
  const ctx = t.ctx;
  const now = Date.now();
  const id = (await ctx.db.insertInto('pay_config').values({ deptId: 1, name: '契约-模拟网关', payType: PayType.wechat, gateway: 'simulator', partner: 'MCH-C', appid: 'APP-C', partnerKey: '', addTime: now, editTime: now })
    .returning('id').executeTakeFirstOrThrow()).id;
  const post = async (url: string, body: string, headers: Record<string, string>) => {
    const answer = await fetch(url, { method: 'POST', body, headers });
    return answer.ok && ((await answer.json()) as { code?: string }).code === 'SUCCESS';
  };
  const platform = new SimulatedPlatform({ db: ctx.db, box: ctx.secrets, now: Date.now, deliver: post, duplicateRate: 0, retryDelaysMs: [] });
  const simulator = new SimulatorGateway({ platform, box: ctx.secrets, now: Date.now });
  // the page token travels in the code url (the customer's phone opens it): kept here for pay()
  const tokens = new Map<string, string>();
  const create = simulator.createPayment.bind(simulator);
  simulator.createPayment = async (config, input) => {
    const made = await create(config, input);
    tokens.set(input.orderNo, new URL(made.codeUrl).searchParams.get('t') ?? '');
    return made;
  };
  const account: PayAccount = {
    id, gateway: 'simulator', partner: 'MCH-C', appid: 'APP-C', partnerKey: '', subMchId: '', signType: '', sellerUserId: '', certSerialNo: '', platformPubKeyId: '', platformPubKey: '', alipayPublicKey: '',
    secrets: { partnerKey: '', certPassword: '', rsaKey: '', apiV3Key: '', appPrivateKey: '', apiCert: '' },
  };
  /** The paid notification again, as the simulator sends it, with fields or its signature altered. */
  const notifyPaid = async (orderNo: string, o: NotifyOverrides = {}) => {
    const row = await ctx.db.selectFrom('pay_sim_payment').selectAll().where('orderNo', '=', orderNo).executeTakeFirstOrThrow();
    const raw = JSON.stringify({ orderNo, transId: row.transId, amount: o.amount ?? row.amount, mchId: o.mchid ?? row.mchId, appId: o.appid ?? row.appId, payTime: Number(row.payTime), notifyId: randomBytes(4).toString('hex') });
    const timestamp = String(Date.now());
    const signature = o.signature ? 'ab'.repeat(32) : platform.sign(account, timestamp, raw);
    return post(row.notifyUrl, raw, { 'content-type': 'application/json', 'x-sim-timestamp': timestamp, 'x-sim-signature': signature });
  };
  return {
    gateway: simulator, account,
    pay: async (orderNo) => {
      await platform.payOnPage(orderNo, tokens.get(orderNo) ?? '');
      await platform.settled();
    },
    notifyPaid,
    stop: () => platform.stop(),
  };
});
