import { createCipheriv, createHash, createPrivateKey, createSign, createVerify, generateKeyPairSync, randomBytes, X509Certificate, type KeyObject } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { selfSignedCertificate } from './certificates.ts';
import { beijingDay, beijingText, FakeBooks, randomDigits, type FakePayment, type FakeRefund } from './books.ts';
import { json, notifyUntilTaken, pagePathOrderNo, payPage, postNotification, serveLoopback, type FakeAnswer, type FakeRequest } from './http.ts';
import { wechatBillCsv } from './wechat-bill.ts';

// A local WeChat Pay APIv3 (Native) on loopback: it checks the merchant's request signatures with the
// merchant key it made, signs every answer and notification with its own platform key (public key mode:
// Wechatpay-Serial PUB_KEY_ID_…) — refusals of an authenticated request too (404 ORDER_NOT_EXIST …), only a
// request it cannot authenticate gets an unsigned 401 SIGN_ERROR — encrypts notification resources with the APIv3 key (AEAD_AES_256_GCM),
// and serves a "customer pays" page at each code_url. startFakeWechatV3 serves it alone on its own port;
// wechat.ts serves it with the APIv2 fake on one port, as api.mch.weixin.qq.com serves both.

/** platformCertificate: sign with a platform certificate (older merchants, /v3/certificates) instead of the public key mode. */
export type FakeWechatV3Options = { now?: () => number; platformCertificate?: boolean };
export type NotifyOverrides = { amount?: number; appid?: string; mchid?: string; signature?: 'forged' | 'signtest'; timestampOffsetS?: number };

/** The fake, not yet listening: `mount` tells it where it is served (the API, the customers' pages). */
/** The merchant's acknowledgement of a notification, as the real service reads it. */
const taken = (a: { status: number; text: string }) => a.status >= 200 && a.status < 300;

export function createFakeWechatV3(options: FakeWechatV3Options = {}) {
  const now = options.now ?? Date.now;
  const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const certificate = options.platformCertificate ? selfSignedCertificate('Fake WeChat Pay platform') : undefined;
  const platform = certificate
    ? { privateKey: createPrivateKey(certificate.keyPem), publicKey: new X509Certificate(certificate.certPem).publicKey }
    : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const platformSerial = certificate ? new X509Certificate(certificate.certPem).serialNumber.toUpperCase() : `PUB_KEY_ID_0119${randomDigits(16)}`;
  const account = {
    mchid: `19${randomDigits(8)}`, appid: `wx${randomBytes(8).toString('hex')}`,
    certSerialNo: randomBytes(20).toString('hex').toUpperCase(), apiV3Key: randomBytes(16).toString('hex'),
    /** public key mode: the id and key to paste; certificate mode: empty (the merchant downloads the certificates) */
    platformPubKeyId: certificate ? '' : platformSerial,
    merchantPrivateKey: String(merchant.privateKey.export({ format: 'pem', type: 'pkcs8' })),
    platformPublicKey: certificate ? '' : String(platform.publicKey.export({ format: 'pem', type: 'spki' })),
  };
  const books = new FakeBooks();
  const bills = new Map<string, Buffer>();
  let baseUrl = '';
  let pageUrl = '';

  const signed = (status: number, data: unknown, key: KeyObject = platform.privateKey): FakeAnswer => {
    const body = data === undefined ? '' : JSON.stringify(data);
    return json(status, data, signatureHeaders(body, key, platformSerial, now()));
  };
  const fail = (status: number, code: string, message: string) => json(status, { code, message });
  /** A refusal of a request whose signature verified: signed like any answer (a merchant verifies it with the platform key). */
  const refuse = (status: number, code: string, message: string) => signed(status, { code, message });

  function verifyMerchant(request: FakeRequest): string | undefined {
    const auth = String(request.headers.authorization ?? '');
    const m = /^WECHATPAY2-SHA256-RSA2048 (.*)$/.exec(auth);
    if (!m) return 'no Authorization';
    const fields = Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (fields.mchid !== account.mchid) return 'mchid';
    if (fields.serial_no !== account.certSerialNo) return 'serial_no';
    if (Math.abs(now() / 1000 - Number(fields.timestamp)) > 300) return 'timestamp';
    const url = `${request.path}${request.query.size ? `?${request.query}` : ''}`;
    const message = `${request.method}\n${url}\n${fields.timestamp}\n${fields.nonce_str}\n${request.text}\n`;
    return createVerify('RSA-SHA256').update(message).verify(merchant.publicKey, String(fields.signature), 'base64') ? undefined : 'signature';
  }

  const transactionOf = (p: FakePayment, o: NotifyOverrides = {}) => ({
    appid: o.appid ?? p.appId, mchid: o.mchid ?? p.mchId, out_trade_no: p.orderNo, transaction_id: p.transId,
    trade_type: 'NATIVE', trade_state: p.status === 'paid' ? (p.refunded > 0 ? 'REFUND' : 'SUCCESS') : p.status === 'closed' ? 'CLOSED' : 'NOTPAY',
    trade_state_desc: '', bank_type: 'OTHERS', success_time: p.payTime ? rfc3339(p.payTime) : undefined,
    amount: { total: o.amount ?? p.amount, payer_total: o.amount ?? p.amount, currency: 'CNY', payer_currency: 'CNY' },
    payer: { openid: 'oFAKE' },
  });
  const refundOf = (r: FakeRefund, p: FakePayment) => ({
    mchid: p.mchId, out_trade_no: r.orderNo, transaction_id: p.transId, out_refund_no: r.refundNo, refund_id: r.refundId,
    refund_status: r.status, status: r.status, success_time: rfc3339(r.time), user_received_account: '支付用户零钱',
    amount: { total: p.amount, refund: r.amount, payer_total: p.amount, payer_refund: r.amount },
  });

  /** Sends a signed, encrypted notification to `url`; answers the merchant's HTTP status. */
  const encrypt = (plain: string, aad: string) => {
    const nonce = randomBytes(6).toString('hex');
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(account.apiV3Key), Buffer.from(nonce));
    cipher.setAAD(Buffer.from(aad));
    return { algorithm: 'AEAD_AES_256_GCM', nonce, associated_data: aad, ciphertext: Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]).toString('base64') };
  };

  async function sendEvent(url: string, eventType: string, originalType: string, resource: object, o: NotifyOverrides = {}) {
    const body = JSON.stringify({
      id: randomBytes(16).toString('hex'), create_time: rfc3339(now()), resource_type: 'encrypt-resource', event_type: eventType, summary: eventType.startsWith('REFUND') ? '退款成功' : '支付成功',
      resource: { original_type: originalType, ...encrypt(JSON.stringify(resource), originalType) },
    });
    const headers = signatureHeaders(body, platform.privateKey, platformSerial, now() + (o.timestampOffsetS ?? 0) * 1000);
    if (o.signature === 'forged') headers['Wechatpay-Signature'] = createSign('RSA-SHA256').update(`${headers['Wechatpay-Timestamp']}\n${headers['Wechatpay-Nonce']}\n${body}\n`).sign(merchant.privateKey, 'base64');
    if (o.signature === 'signtest') headers['Wechatpay-Signature'] = `WECHATPAY/SIGNTEST/${headers['Wechatpay-Signature']}`;
    return postNotification(url, body, { 'content-type': 'application/json', ...headers });
  }

  const fake = {
    /** The merchant's answer to a notification is its acknowledgement (else the fake sends it again). */
    acknowledged: taken,
    account, books,
    get baseUrl() {
      return baseUrl;
    },
    get pageUrl() {
      return pageUrl;
    },
    mount(urls: { api: string; pages: string }) {
      baseUrl = urls.api;
      pageUrl = urls.pages;
    },
    handle,
    /** The customer pays (the page's button): paid once, then the notification. */
    async pay(orderNo: string, o: { afterClose?: boolean } = {}) {
      const p = books.pay(orderNo, `4200${randomDigits(24)}`, now(), o.afterClose);
      return p ? notifyUntilTaken(() => fake.notifyPaid(orderNo), taken) : undefined;
    },
    /** (Re)sends the paid notification of a payment, with fields or signature altered for tests. */
    async notifyPaid(orderNo: string, o: NotifyOverrides = {}) {
      const p = books.payments.get(orderNo)!;
      return sendEvent(p.notifyUrl, 'TRANSACTION.SUCCESS', 'transaction', transactionOf(p, o), o);
    },
    async notifyRefund(refundNo: string, o: NotifyOverrides = {}) {
      const r = books.refunds.get(refundNo)!;
      return sendEvent(r.notifyUrl!, 'REFUND.SUCCESS', 'refund', refundOf(r, books.payments.get(r.orderNo)!), o);
    },
    close: async () => {},
  };

  async function handle(request: FakeRequest): Promise<FakeAnswer | undefined> {
    const orderNo = pagePathOrderNo(request.path);
    if (orderNo !== undefined) {
      if (request.method === 'POST') await fake.pay(orderNo);
      return payPage('微信支付（本地模拟）', books.payments.get(orderNo), orderNo, '订单已关闭');
    }
    if (!request.path.startsWith('/v3/')) return undefined;
    const refused = verifyMerchant(request);
    if (refused) return fail(401, 'SIGN_ERROR', `签名错误 (${refused})`);
    // the bill file: a request signed like any other, its answer the bytes alone (unsigned: the merchant checks their hash)
    if (request.path === '/v3/billdownload/file') {
      const file = bills.get(request.query.get('token') ?? '');
      return file ? { headers: { 'content-type': 'application/octet-stream' }, body: file } : fail(404, 'RESOURCE_NOT_EXISTS', '账单不存在');
    }
    const body = request.text ? (JSON.parse(request.text) as Record<string, any>) : {};
    if (request.method === 'GET' && request.path === '/v3/certificates') {
      if (!certificate) return signed(200, { data: [] });
      const cert = new X509Certificate(certificate.certPem);
      return signed(200, { data: [{ serial_no: platformSerial, effective_time: rfc3339(Date.parse(cert.validFrom)), expire_time: rfc3339(Date.parse(cert.validTo)), encrypt_certificate: encrypt(certificate.certPem, 'certificate') }] });
    }
    if (request.method === 'POST' && request.path === '/v3/pay/transactions/native') {
      if (body.mchid !== account.mchid) return refuse(400, 'MCH_NOT_EXISTS', '商户号不存在');
      if (body.appid !== account.appid) return refuse(400, 'APPID_MCHID_NOT_MATCH', 'appid和mch_id不匹配');
      // the required fields, as WeChat checks them: 400 PARAM_ERROR naming the field
      for (const field of ['description', 'out_trade_no', 'notify_url'] as const) {
        if (typeof body[field] !== 'string' || body[field] === '') return refuse(400, 'PARAM_ERROR', `输入源"/body/${field}"映射到值字段必填性规则校验失败，此字段为必填项`);
      }
      if (!/^[0-9A-Za-z_\-|*]{6,32}$/.test(body.out_trade_no)) return refuse(400, 'PARAM_ERROR', '输入源"/body/out_trade_no"映射到值字段格式校验失败');
      if (!/^https?:\/\//.test(body.notify_url)) return refuse(400, 'PARAM_ERROR', '输入源"/body/notify_url"映射到值字段格式校验失败');
      if (!Number.isSafeInteger(body.amount?.total) || body.amount.total <= 0) return refuse(400, 'PARAM_ERROR', 'amount.total');
      const known = books.payments.get(body.out_trade_no);
      if (known && known.status !== 'open') return refuse(400, 'ORDERPAID', '订单已支付或已关闭');
      if (!books.open({ orderNo: body.out_trade_no, amount: body.amount.total, subject: body.description, notifyUrl: body.notify_url, appId: body.appid, mchId: body.mchid, createTime: now() })) {
        return refuse(400, 'INVALID_REQUEST', '订单号重复');
      }
      return signed(200, { code_url: `${pageUrl}/pay/${encodeURIComponent(body.out_trade_no)}` });
    }
    const tx = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)(\/close)?$/.exec(request.path);
    if (tx) {
      const p = books.payments.get(decodeURIComponent(tx[1]!));
      if (!p) return refuse(404, 'ORDER_NOT_EXIST', '订单不存在');
      if (tx[2]) {
        if (p.status === 'paid') return refuse(400, 'ORDERPAID', '订单已支付');
        p.status = 'closed';
        return signed(204, undefined);
      }
      return signed(200, transactionOf(p));
    }
    if (request.method === 'POST' && request.path === '/v3/refund/domestic/refunds') {
      const p = books.payments.get(body.out_trade_no);
      if (p && body.amount?.total !== p.amount) return refuse(400, 'PARAM_ERROR', '订单金额与退款金额不一致');
      const done = books.refund({ orderNo: body.out_trade_no, refundNo: body.out_refund_no, amount: body.amount?.refund, notifyUrl: body.notify_url }, now());
      if (done.error) return refuse(400, 'INVALID_REQUEST', done.error);
      if (done.refund!.notifyUrl) setTimeout(() => void notifyUntilTaken(() => fake.notifyRefund(done.refund!.refundNo), taken), 10).unref();
      return signed(200, refundOf(done.refund!, p!));
    }
    const rq = /^\/v3\/refund\/domestic\/refunds\/([^/]+)$/.exec(request.path);
    if (rq) {
      const r = books.refunds.get(decodeURIComponent(rq[1]!));
      return r ? signed(200, refundOf(r, books.payments.get(r.orderNo)!)) : refuse(404, 'RESOURCE_NOT_EXISTS', '退款单不存在');
    }
    if (request.path === '/v3/bill/tradebill') {
      const csv = wechatBillCsv(books, request.query.get('bill_date') ?? '');
      if (!csv) return refuse(400, 'NO_STATEMENT_EXIST', '无对账单');
      const gz = gzipSync(Buffer.from(csv));
      const token = randomBytes(12).toString('hex');
      bills.set(token, gz);
      return signed(200, { hash_type: 'SHA1', hash_value: createHash('sha1').update(gz).digest('hex'), download_url: `${baseUrl}/v3/billdownload/file?token=${token}` });
    }
    return refuse(404, 'NOT_FOUND', '接口不存在');
  }

  return fake;
}
export type FakeWechatV3 = ReturnType<typeof createFakeWechatV3>;

/** The APIv3 fake alone on a plain HTTP port (API and pages). */
export async function startFakeWechatV3(options: FakeWechatV3Options & { port?: number } = {}): Promise<FakeWechatV3> {
  const fake = createFakeWechatV3(options);
  const server = await serveLoopback(options.port ?? 0, fake.handle);
  fake.mount({ api: server.url, pages: server.url });
  fake.close = server.close;
  return fake;
}

function signatureHeaders(body: string, key: KeyObject, serial: string, at: number): Record<string, string> {
  const timestamp = String(Math.floor(at / 1000));
  const nonce = randomBytes(16).toString('hex').toUpperCase();
  const signature = createSign('RSA-SHA256').update(`${timestamp}\n${nonce}\n${body}\n`).sign(key, 'base64');
  return { 'Wechatpay-Timestamp': timestamp, 'Wechatpay-Nonce': nonce, 'Wechatpay-Serial': serial, 'Wechatpay-Signature': signature, 'Wechatpay-Signature-Type': 'WECHATPAY2-SHA256-RSA2048' };
}

const rfc3339 = (ms: number) => `${beijingText(ms).replace(' ', 'T')}+08:00`;
export { beijingDay };
