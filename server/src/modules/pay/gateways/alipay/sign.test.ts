import { createPrivateKey, createPublicKey, createSign } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VECTOR_PRIVATE_KEY } from '../../../../test/signing-vector-key.ts';
import type { PayAccount } from '../gateway.ts';
import { AlipayGateway } from './gateway.ts';

// The application's request signature (RSA2), against a vector computed apart from the product: a precreate
// with the fixed key, clock and order below, as Alipay reads it (every parameter but sign, sorted, k=v joined
// with &, sign_type kept), signed with openssl
// (printf '%s' '<the string below>' | openssl dgst -sha256 -sign key.pem | base64).

const SIGNED_TEXT = 'app_id=2021000000000001&biz_content={"out_trade_no":"T20260101000001","total_amount":"2.50","subject":"可乐 330ml","time_expire":"2026-01-01 10:08:04"}'
  + '&charset=utf-8&method=alipay.trade.precreate&notify_url=https://merchant.example/notify&sign_type=RSA2&timestamp=2026-01-01 10:03:04&version=1.0';
const SIGNATURE = 'RLRjighucZQPxIHWQwFzz9dGhN2xus5qEZOs1S67QWKY6CkJUzC3/iE/h04Ny1BpKaB14nnc8Owbz0WKzcOkrF1K01i/kuBURVY3A3tmuXnh6vwNbz6q1yPx/zv3Zjk/7EgStaRSrlmjFhnwAjuUQDpFPyOTT36vV74/KBXfSAU3VSyizm5XByDZ1zltErh2/QgXIBFuRpMsxvuyHS+cP0DKtcRucNAh1p6OEhm7SmGhmHMGhXv9yr2YPzovJgR0ks9v566TeebKcmJ6T94c2Y+AciTpTJylv7uZRdtbawu3VXA29St3OvnicolcPG2agEdlvyrAutohxsdonzmwEg==';

describe('Alipay request signature (RSA2)', () => {
  let url = '';
  const received: Record<string, string>[] = [];
  // stands in for gateway.do: takes the request's parameters (query and form), answers nothing Alipay would
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      received.push({ ...Object.fromEntries(query), ...Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/gateway.do`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const key = createPrivateKey(VECTOR_PRIVATE_KEY);
  const account = {
    id: 1, gateway: 'alipay', partner: '2088102146225135', appid: '2021000000000001', partnerKey: '', subMchId: '', signType: 'RSA2', sellerUserId: '',
    certSerialNo: '', platformPubKeyId: '', platformPubKey: '', alipayPublicKey: String(createPublicKey(key).export({ format: 'pem', type: 'spki' })),
    secrets: { partnerKey: '', certPassword: '', rsaKey: '', apiV3Key: '', appPrivateKey: VECTOR_PRIVATE_KEY, apiCert: '' },
  } as PayAccount;
  // 2026-01-01 02:03:04 UTC: 10:03:04 in Beijing, as Alipay reads the timestamp
  const gatewayAt = () => new AlipayGateway({ gatewayUrl: url, now: () => Date.UTC(2026, 0, 1, 2, 3, 4) });

  it('signs a precreate as the vector: the parameters sent, and their signature', async () => {
    const gateway = gatewayAt();
    received.length = 0;
    // the stand-in answers no signed response: the create fails after the request went out
    await expect(gateway.createPayment(account, { orderNo: 'T20260101000001', amount: 250, subject: '可乐 330ml', expireAt: Date.UTC(2026, 0, 1, 2, 8, 4), notifyUrl: 'https://merchant.example/notify' })).rejects.toThrow();
    expect(received).toHaveLength(1);
    const { sign, ...params } = received[0]!;
    expect(Object.keys(params).sort().map((k) => `${k}=${params[k]}`).join('&')).toBe(SIGNED_TEXT);
    expect(sign).toBe(SIGNATURE);
    // the vector itself: the text signed here by hand gives the same bytes
    expect(createSign('RSA-SHA256').update(SIGNED_TEXT, 'utf8').sign(key, 'base64')).toBe(SIGNATURE);
  });
});
