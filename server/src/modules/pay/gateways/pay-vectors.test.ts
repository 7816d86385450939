import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AlipayGateway } from './alipay/gateway.ts';
import type { PayAccount } from './gateway.ts';
import { publicKeyOf } from './keys.ts';
import { sign, signatureValid } from './wechat-v2/sign.ts';
import { decryptResource, verifySigned } from './wechat-v3/crypto.ts';

// /work/shared/data/pay-vectors.md as unit tests: each vector verifies, and changing any byte of its
// input makes it fail.

/** Every one-character change of `text` (the next code point in place), at each position. */
const mutations = function* (text: string) {
  for (let i = 0; i < text.length; i++) yield `${text.slice(0, i)}${String.fromCharCode(text.charCodeAt(i) ^ 1)}${text.slice(i + 1)}`;
};

describe('WeChat Pay v2 signature (vector 1)', () => {
  const fields = { appid: 'wxd930ea5d5a258f4f', mch_id: '10000100', device_info: '1000', body: 'test', nonce_str: 'ibuaiVcKdpRxkhJA' };
  const key = '192006250b4c09247ec02edce69f6a2d';
  it('MD5 and HMAC-SHA256 give the published values, and verify', () => {
    expect(sign(fields, key, 'MD5')).toBe('9A0A8659F005D6984697E2CA0A9CF3B7');
    expect(sign(fields, key, 'HMAC-SHA256')).toBe('6A9AE1657590FD6257D693A078E1C3E4BB6BA4DC30B23E0EE2496E54170DACD6');
    expect(signatureValid({ ...fields, sign: '9A0A8659F005D6984697E2CA0A9CF3B7' }, key)).toBe(true);
    expect(signatureValid({ ...fields, sign: '6A9AE1657590FD6257D693A078E1C3E4BB6BA4DC30B23E0EE2496E54170DACD6' }, key)).toBe(true);
    expect(signatureValid({ ...fields, sign_type: '', empty: '', sign: '9A0A8659F005D6984697E2CA0A9CF3B7' }, key)).toBe(true); // empty values are left out
  });
  it('any altered byte of a value, the key or the signature fails', () => {
    for (const [name, value] of Object.entries(fields)) {
      for (const changed of mutations(value)) expect(signatureValid({ ...fields, [name]: changed, sign: '9A0A8659F005D6984697E2CA0A9CF3B7' }, key), `${name}=${changed}`).toBe(false);
    }
    for (const changed of mutations(key)) expect(signatureValid({ ...fields, sign: '6A9AE1657590FD6257D693A078E1C3E4BB6BA4DC30B23E0EE2496E54170DACD6' }, changed)).toBe(false);
    for (const changed of mutations('9A0A8659F005D6984697E2CA0A9CF3B7')) expect(signatureValid({ ...fields, sign: changed }, key)).toBe(false);
  });
});

const V3_KEY = '0123456789abcdef0123456789abcdef';
const V3_RESOURCE = { algorithm: 'AEAD_AES_256_GCM', nonce: '0123456789ab', associated_data: 'transaction', ciphertext: '4ouITzeV7GmUYUbi3WteHWDS5e076h4ZReuqRrqM+N1PXV1boadmhiW9LEPnqwqz0Rny3IArAgYHsIYpYFsuqFCWcxFLlSxVbpNGM+85ZgdkljWz' };

describe('WeChat Pay v3 AEAD_AES_256_GCM resource (vector 2)', () => {
  it('decrypts to the published transaction', () => {
    expect(decryptResource(V3_RESOURCE, V3_KEY)).toBe('{"out_trade_no":"T1","trade_state":"SUCCESS","amount":{"total":100}}');
  });
  it('any altered byte of the ciphertext, nonce, associated data or key fails', () => {
    const bytes = Buffer.from(V3_RESOURCE.ciphertext, 'base64');
    for (let i = 0; i < bytes.length; i++) {
      const altered = Buffer.from(bytes);
      altered[i]! ^= 1;
      expect(() => decryptResource({ ...V3_RESOURCE, ciphertext: altered.toString('base64') }, V3_KEY)).toThrow();
    }
    for (const nonce of mutations(V3_RESOURCE.nonce)) expect(() => decryptResource({ ...V3_RESOURCE, nonce }, V3_KEY)).toThrow();
    for (const aad of mutations(V3_RESOURCE.associated_data)) expect(() => decryptResource({ ...V3_RESOURCE, associated_data: aad }, V3_KEY)).toThrow();
    for (const key of mutations(V3_KEY)) expect(() => decryptResource(V3_RESOURCE, key)).toThrow();
  });
});

const V3_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAzDhYTJdMyOWWd12QY6ZG
DU/qlG3uXRCBWGzY5s/+25jg/1bmR4DpIQ9077JZwBhm1LrJCAdiUQxxiYnIF1eS
zOsiZPWXX8GYIKDWOKzULvyXkTdbmylY4HYyDDfD/oF1nH8WMT0pkJjtydkDBRHS
1iOCZ6BCblySHqGxO9rliCp6sHRviYTEr2w3WRnwxGc2AOxnJSojV1LWX8PjYNWj
pdKn+jRJIX/UIz4isRlCgXNJocmRHewmqabPfxRwxAO1sfEIRGCK4pEvc6Z5HaI7
hCLuIOwrywc48pGNturuCC0V/G+LCX09vZCOm9upBVVn3VKftQ9GD9NJwRuezHzt
JQIDAQAB
-----END PUBLIC KEY-----`;
const V3_BODY = '{"id":"EV-2018022511223320873","create_time":"2026-11-23T10:00:00+08:00","resource_type":"encrypt-resource","event_type":"TRANSACTION.SUCCESS","summary":"支付成功","resource":{"original_type":"transaction","algorithm":"AEAD_AES_256_GCM","ciphertext":"4ouITzeV7GmUYUbi3WteHWDS5e076h4ZReuqRrqM+N1PXV1boadmhiW9LEPnqwqz0Rny3IArAgYHsIYpYFsuqFCWcxFLlSxVbpNGM+85ZgdkljWz","associated_data":"transaction","nonce":"0123456789ab"}}';
const V3_SIGNATURE = 'KJnZwFK1nocafdJSldG98QMDGBf/xSqVW3WFwWzWVcJQU3uExjco/BXSoylZSRsmmhviwH4wWbyjza/LVGZyaFZrcw6jJIcjV/dn5xgI4YzA6H/2ZMFSKXLGywq2/nk1JEJgOojiZOhRGKaHT/vRfJFaIWCRSQTPWPzqbAe92m5laie9doN8JNS2p0l+1G7D0rdy3REGyRErCHovuNiEE33ig8JRW/PjWDK9JaZLdBvId8osULUBnO0j2n8UO2NKntD54yCc3J2+4UTmV2+/umGeGfcpA/nklFUTpqis9BzvG7RCA9138md5sBNCcAbFjEbM7YYmPfES1BTOM0OcYQ==';
const V3_HEADERS = {
  'wechatpay-timestamp': '1795000000', 'wechatpay-nonce': '593BEC0C930BF1AFEB40B4A08C8FB242', 'wechatpay-signature': V3_SIGNATURE,
  'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048', 'wechatpay-serial': 'PUB_KEY_ID_0114232134912410000000000000',
};

describe('WeChat Pay v3 notification signature (vector 3)', () => {
  const keyOf = (serial: string) => (serial === V3_HEADERS['wechatpay-serial'] ? publicKeyOf(V3_PUBLIC_KEY) : undefined);
  const at = 1_795_000_000_000;
  it('verifies over timestamp\\nnonce\\nbody\\n with the clock injected; refused ±300 s away', () => {
    expect(() => verifySigned(V3_HEADERS, V3_BODY, keyOf, at + 120_000)).not.toThrow();
    expect(() => verifySigned(V3_HEADERS, V3_BODY, keyOf, at + 301_000)).toThrow(/300/);
    expect(() => verifySigned(V3_HEADERS, V3_BODY, keyOf, at - 301_000)).toThrow(/300/);
    expect(() => verifySigned(V3_HEADERS, V3_BODY, keyOf, Date.now())).toThrow(/300/);
  });
  it('any altered byte of the body, nonce, timestamp or signature fails; so does re-serialised JSON and the SIGNTEST prefix', () => {
    for (const body of mutations(V3_BODY)) expect(() => verifySigned(V3_HEADERS, body, keyOf, at)).toThrow();
    for (const nonce of mutations(V3_HEADERS['wechatpay-nonce'])) expect(() => verifySigned({ ...V3_HEADERS, 'wechatpay-nonce': nonce }, V3_BODY, keyOf, at)).toThrow();
    expect(() => verifySigned({ ...V3_HEADERS, 'wechatpay-timestamp': '1795000001' }, V3_BODY, keyOf, at)).toThrow();
    const sig = Buffer.from(V3_SIGNATURE, 'base64');
    for (let i = 0; i < sig.length; i += 7) {
      const altered = Buffer.from(sig);
      altered[i]! ^= 1;
      expect(() => verifySigned({ ...V3_HEADERS, 'wechatpay-signature': altered.toString('base64') }, V3_BODY, keyOf, at)).toThrow();
    }
    expect(() => verifySigned(V3_HEADERS, JSON.stringify(JSON.parse(V3_BODY)), keyOf, at)).not.toThrow(); // same bytes: the body is compact already
    expect(() => verifySigned(V3_HEADERS, JSON.stringify(JSON.parse(V3_BODY), null, 1), keyOf, at)).toThrow();
    expect(() => verifySigned({ ...V3_HEADERS, 'wechatpay-signature': `WECHATPAY/SIGNTEST/${V3_SIGNATURE}` }, V3_BODY, keyOf, at)).toThrow(/probe/);
    expect(() => verifySigned({ ...V3_HEADERS, 'wechatpay-serial': 'PUB_KEY_ID_OTHER' }, V3_BODY, keyOf, at)).toThrow(/Serial/);
  });
});

const ALIPAY_PUBLIC_KEY = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAqObrdC7hrgAVM98tK0nv3hSQRGGKT4lBsQjHiGjeYZjOPIPHR5knm2jnnz/YGIXIofVHkA/tAlBAd5DrY7YpvI4tP5EONLtZKC2ghBMx7McI2wRD0xiqzxOQr1FuhZGJ8/AUokBzJrzY+aGX2xcOrxFYRlFilvVLTXg4LWjR1tdPkO6+i7wQZAIVMClPkwVRZEbaERRHlKqTzv2gGv5rDU8gRoe1LeaN+6BlbTqHWkQcNCUNrA8C6l17XAXGKDsm/9TFWwO8EPHHHCaQdjtV5/FdcWIt+L8SR1ss7EXTjYDFtxcKVv9rEoY1lX8T4mX+GbXfZHraG5NCF1+XioL5JwIDAQAB';
const ALIPAY_FIELDS: Record<string, string> = {
  app_id: '2019073166072302', auth_app_id: '2019073166072302', buyer_id: '2088102534368455', buyer_logon_id: 'xud***@126.com', buyer_pay_amount: '0.10', charset: 'utf-8',
  fund_bill_list: '[{"amount":"0.10","fundChannel":"ALIPAYACCOUNT"}]', gmt_create: '2019-08-15 15:56:22', gmt_payment: '2019-08-15 15:56:24', invoice_amount: '0.10',
  notify_id: '2019081500222155624068450559358070', notify_time: '2019-08-15 15:56:25', notify_type: 'trade_status_sync', out_trade_no: '20190815155618536-564-57',
  point_amount: '0.00', receipt_amount: '0.10', seller_email: 'z97-yuquerevenue@service.aliyun.com', seller_id: '2088531891668739', sign_type: 'RSA2', subject: '语雀空间 500人规模',
  total_amount: '0.10', trade_no: '2019081522001468450512505578', trade_status: 'TRADE_SUCCESS', version: '1.0',
  sign: 'QfTb8tqE1BMhS5qAnXtvsF3/jBkEvu9q9en0pdbBUDDjvKycZhQb7h8GDs4FKfi049PynaNuatxSgLb/nLWZpXyyh0LEWdK2S6Ri7nPwrVgOs08zugLO20vOQz44y3ti2Ncm8/wZts1Fr2gZ7pShnVX3d1B50hbsXnObT1r/U8ONNQjWXd0HIul4TG+Q3fm3svmSvFEy0WnzuhcyHPX5Gm4ELNctL6Qd5YniGJFNcc7kopHYtI/XD9YCKCH6Ct02rzUs9i11C9CsadtZn+WhxF26Dqt9sGEFajkJ8cxUTLi8+VCpLHsgPE8P0y095uQcDdK0YjCh4x7wVSov+lrmOQ==',
};

describe('Alipay RSA2 notification (vector 4), through the gateway (alipay-sdk checkNotifySignV2)', () => {
  const appKey = String(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }));
  const account: PayAccount = {
    id: 1, gateway: 'alipay', partner: '2088531891668739', appid: '2019073166072302', partnerKey: '', subMchId: '', signType: 'RSA2', sellerUserId: '',
    certSerialNo: '', platformPubKeyId: '', platformPubKey: '', alipayPublicKey: ALIPAY_PUBLIC_KEY,
    secrets: { partnerKey: '', certPassword: '', rsaKey: '', apiV3Key: '', appPrivateKey: appKey, apiCert: '' },
  };
  const gateway = new AlipayGateway({ gatewayUrl: 'http://127.0.0.1:9/gateway.do' });
  const body = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

  it('verifies the form as posted (URL-encoded) and reads its amount as fen', () => {
    expect(gateway.verifyNotification(account, body(ALIPAY_FIELDS))).toEqual({
      orderNo: '20190815155618536-564-57', transId: '2019081522001468450512505578', amount: 10, mchId: '2088531891668739', appId: '2019073166072302',
      payTime: Date.UTC(2019, 7, 15, 7, 56, 24),
    });
  });
  it('any altered byte of any value, or of the signature, fails; so does a field added', () => {
    for (const [name, value] of Object.entries(ALIPAY_FIELDS)) {
      if (name === 'sign_type') continue; // not signed (the rule leaves it out)
      const positions = name === 'sign' ? [0, 40, 100, 200, 300] : [...Array(value.length).keys()];
      for (const i of positions) {
        const changed = `${value.slice(0, i)}${String.fromCharCode(value.charCodeAt(i) ^ 1)}${value.slice(i + 1)}`;
        expect(() => gateway.verifyNotification(account, body({ ...ALIPAY_FIELDS, [name]: changed })), `${name}[${i}]`).toThrow();
      }
    }
    expect(() => gateway.verifyNotification(account, body({ ...ALIPAY_FIELDS, refund_fee: '0.10' }))).toThrow();
  });
});
