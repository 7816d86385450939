import { createHash, createSign, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAlipay, type FakeAlipay } from './alipay.ts';
import { beijingDay } from './books.ts';
import type { FakeRequest } from './http.ts';
import { createFakeWechatV2 } from './wechat-v2.ts';
import { createFakeWechatV3 } from './wechat-v3.ts';

// The fakes refuse what the real services refuse: a create without its required fields, the same order number
// asked again with other parameters (never answered with the first order), a V3 request not signed by the
// merchant — the bill file's too. Each request is built and signed here by hand (node:crypto), not by the product.

const request = (method: string, path: string, text = '', headers: Record<string, string> = {}): FakeRequest => {
  const url = new URL(path, 'http://fake.local');
  return { method, path: url.pathname, query: url.searchParams, headers, body: Buffer.from(text), text };
};
const newOrderNo = () => `T${Date.now()}${randomBytes(3).toString('hex')}`;

describe('the WeChat Pay APIv3 fake', () => {
  const fake = createFakeWechatV3();
  fake.mount({ api: 'http://fake.local', pages: 'http://fake.local' });
  const a = fake.account;
  /** WECHATPAY2-SHA256-RSA2048 over METHOD\nURL\ntimestamp\nnonce\nbody\n with the merchant key. */
  const signedRequest = (method: string, path: string, body = '') => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(16).toString('hex');
    const signature = createSign('RSA-SHA256').update(`${method}\n${path}\n${timestamp}\n${nonce}\n${body}\n`).sign(a.merchantPrivateKey, 'base64');
    return request(method, path, body, { authorization: `WECHATPAY2-SHA256-RSA2048 mchid="${a.mchid}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${a.certSerialNo}"` });
  };
  const create = async (fields: Record<string, unknown>) => {
    const answer = (await fake.handle(signedRequest('POST', '/v3/pay/transactions/native', JSON.stringify({ appid: a.appid, mchid: a.mchid, ...fields }))))!;
    return { status: answer.status ?? 200, data: JSON.parse(String(answer.body)) as Record<string, string> };
  };
  const order = () => ({ description: '可乐 330ml', out_trade_no: newOrderNo(), notify_url: 'https://merchant.example/notify', amount: { total: 250, currency: 'CNY' } });

  it('creates a well-formed order', async () => {
    const o = order();
    expect(await create(o)).toEqual({ status: 200, data: { code_url: `http://fake.local/pay/${o.out_trade_no}` } });
  });

  it.each(['description', 'out_trade_no', 'notify_url'])('refuses a create without %s: 400 PARAM_ERROR, nothing opened', async (field) => {
    const o: Record<string, unknown> = order();
    delete o[field];
    const answer = await create(o);
    expect(answer.status).toBe(400);
    expect(answer.data.code).toBe('PARAM_ERROR');
    expect(answer.data.message).toContain(field);
    expect(fake.books.payments.size).toBe(1); // the well-formed one only
  });

  it('answers the same create retried with the same order; another amount or description for it: 400 INVALID_REQUEST 订单号重复', async () => {
    const o = order();
    const first = await create(o);
    expect(await create(o)).toEqual(first);
    expect(await create({ ...o, amount: { total: 1, currency: 'CNY' } })).toMatchObject({ status: 400, data: { code: 'INVALID_REQUEST', message: '订单号重复' } });
    expect(await create({ ...o, description: '雪碧' })).toMatchObject({ status: 400, data: { code: 'INVALID_REQUEST', message: '订单号重复' } });
    expect(fake.books.payments.get(o.out_trade_no)).toMatchObject({ amount: 250, subject: '可乐 330ml' });
  });

  it('serves the bill file only to a request the merchant signed (its answer alone is unsigned)', async () => {
    const o = order();
    await create(o);
    fake.books.pay(o.out_trade_no, 'TX-BILL', Date.now());
    const info = JSON.parse(String((await fake.handle(signedRequest('GET', `/v3/bill/tradebill?bill_date=${beijingDay(Date.now())}&bill_type=ALL&tar_type=GZIP`)))!.body)) as { download_url: string; hash_value: string };
    const path = info.download_url.replace('http://fake.local', '');
    const unsigned = (await fake.handle(request('GET', path)))!;
    expect([unsigned.status, JSON.parse(String(unsigned.body)).code]).toEqual([401, 'SIGN_ERROR']);
    const otherKey = signedRequest('GET', path);
    otherKey.headers.authorization = String(otherKey.headers.authorization).replace(/signature="[^"]+"/, `signature="${Buffer.from('x'.repeat(256)).toString('base64')}"`);
    expect((await fake.handle(otherKey))!.status).toBe(401);
    const file = (await fake.handle(signedRequest('GET', path)))!;
    expect(file.status ?? 200).toBe(200);
    expect(createHash('sha1').update(file.body as Buffer).digest('hex')).toBe(info.hash_value);
  });
});

describe('the WeChat Pay APIv2 fake', () => {
  const fake = createFakeWechatV2();
  fake.mount({ api: 'https://fake.local', pages: 'http://fake.local' });
  const a = fake.account;
  /** MD5 over the sorted non-empty fields and &key=, upper-case hex. */
  const xml = (fields: Record<string, string>) => {
    const f = { appid: a.appid, mch_id: a.mchid, nonce_str: randomBytes(8).toString('hex'), ...fields };
    const text = `${Object.keys(f).filter((k) => f[k as keyof typeof f] !== '').sort().map((k) => `${k}=${f[k as keyof typeof f]}`).join('&')}&key=${a.apiKey}`;
    const all = { ...f, sign: createHash('md5').update(text).digest('hex').toUpperCase() };
    return `<xml>${Object.entries(all).map(([k, v]) => `<${k}><![CDATA[${v}]]></${k}>`).join('')}</xml>`;
  };
  const field = (body: string, name: string) => new RegExp(`<${name}><!\\[CDATA\\[(.*?)\\]\\]></${name}>`).exec(body)?.[1];
  const create = async (fields: Record<string, string>) => {
    const body = String((await fake.handle(request('POST', '/pay/unifiedorder', xml(fields))))!.body);
    return { return_code: field(body, 'return_code'), result_code: field(body, 'result_code'), err_code: field(body, 'err_code'), code_url: field(body, 'code_url') };
  };
  const order = () => ({ body: '可乐 330ml', out_trade_no: newOrderNo(), total_fee: '250', notify_url: 'https://merchant.example/notify', trade_type: 'NATIVE', spbill_create_ip: '127.0.0.1' });

  it('creates a well-formed order', async () => {
    const o = order();
    expect(await create(o)).toEqual({ return_code: 'SUCCESS', result_code: 'SUCCESS', err_code: undefined, code_url: `http://fake.local/pay/${o.out_trade_no}` });
  });

  it.each(['body', 'out_trade_no', 'notify_url'])('refuses a create without %s: result_code FAIL, err_code LACK_PARAMS, nothing opened', async (name) => {
    const o: Record<string, string> = order();
    delete o[name];
    expect(await create(o)).toMatchObject({ return_code: 'SUCCESS', result_code: 'FAIL', err_code: 'LACK_PARAMS' });
    expect(fake.books.payments.size).toBe(1);
  });

  it('answers the same create retried; another amount for the same out_trade_no: err_code OUT_TRADE_NO_USED', async () => {
    const o = order();
    const first = await create(o);
    expect((await create(o)).code_url).toBe(first.code_url);
    expect(await create({ ...o, total_fee: '1' })).toMatchObject({ return_code: 'SUCCESS', result_code: 'FAIL', err_code: 'OUT_TRADE_NO_USED' });
    expect(await create({ ...o, body: '雪碧' })).toMatchObject({ result_code: 'FAIL', err_code: 'OUT_TRADE_NO_USED' });
    expect(fake.books.payments.get(o.out_trade_no)).toMatchObject({ amount: 250, subject: '可乐 330ml' });
  });
});

describe('the Alipay fake', () => {
  let fake: FakeAlipay;
  beforeAll(async () => {
    fake = await startFakeAlipay();
  });
  afterAll(() => fake.close());
  const beijingNow = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
  /** RSA2 over the sorted parameters but sign, with the application key. */
  const precreate = async (biz: Record<string, string>) => {
    const params: Record<string, string> = {
      app_id: fake.account.appId, method: 'alipay.trade.precreate', format: 'JSON', charset: 'utf-8', sign_type: 'RSA2', timestamp: beijingNow(), version: '1.0',
      notify_url: 'https://merchant.example/notify', biz_content: JSON.stringify(biz),
    };
    params.sign = createSign('RSA-SHA256').update(Object.keys(params).sort().map((k) => `${k}=${params[k]}`).join('&'), 'utf8').sign(fake.account.appPrivateKey, 'base64');
    const answer = await fetch(`${fake.baseUrl}/gateway.do`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8' }, body: new URLSearchParams(params) });
    return (JSON.parse(await answer.text()) as { alipay_trade_precreate_response: Record<string, string> }).alipay_trade_precreate_response;
  };
  const order = () => ({ out_trade_no: newOrderNo(), total_amount: '2.50', subject: '可乐 330ml' });

  it('creates a well-formed order', async () => {
    const o = order();
    expect(await precreate(o)).toMatchObject({ code: '10000', out_trade_no: o.out_trade_no });
  });

  it.each(['out_trade_no', 'total_amount', 'subject'])('refuses a precreate without %s: 40004 ACQ.INVALID_PARAMETER, nothing opened', async (name) => {
    const o: Record<string, string> = order();
    delete o[name];
    expect(await precreate(o)).toMatchObject({ code: '40004', sub_code: 'ACQ.INVALID_PARAMETER' });
    expect(fake.books.payments.size).toBe(1);
  });

  it('answers the same precreate retried; another amount or subject for the same out_trade_no: ACQ.CONTEXT_INCONSISTENT', async () => {
    const o = order();
    const first = await precreate(o);
    expect((await precreate(o)).qr_code).toBe(first.qr_code);
    expect(await precreate({ ...o, total_amount: '0.01' })).toMatchObject({ code: '40004', sub_code: 'ACQ.CONTEXT_INCONSISTENT' });
    expect(await precreate({ ...o, subject: '雪碧' })).toMatchObject({ code: '40004', sub_code: 'ACQ.CONTEXT_INCONSISTENT' });
    expect(fake.books.payments.get(o.out_trade_no)).toMatchObject({ amount: 250, subject: '可乐 330ml' });
  });
});
