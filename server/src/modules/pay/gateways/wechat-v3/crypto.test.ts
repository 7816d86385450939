import { createPrivateKey, createPublicKey, createVerify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { VECTOR_PRIVATE_KEY } from '../../../../test/signing-vector-key.ts';
import { authorization } from './crypto.ts';

// The merchant's request signature (the Authorization header of every APIv3 call) against a vector computed
// apart from the product: the fixed key, nonce, timestamp and body below, signed with openssl
// (printf 'POST\n/v3/pay/transactions/native\n1795000000\n<nonce>\n<body>\n' | openssl dgst -sha256 -sign key.pem | base64).

const BODY = '{"appid":"wxd930ea5d5a258f4f","mchid":"1900000001","description":"可乐 330ml","out_trade_no":"T20260101000001","notify_url":"https://merchant.example/notify","amount":{"total":250,"currency":"CNY"}}';
const NONCE = '593BEC0C930BF1AFEB40B4A08C8FB242';
const SIGNATURE = 'FEhjfqNSej8DdqfzA31JG3+zKOj145jdwLV9DKqdB1BLngZ/t5tX7JfOJql195mWR9laaFhc8e9GP7lNBiHZ5nkMWGlLp3SCem/C8PVaoPjHy2D3PY7GEg7llY7eO60SpNDoQrOcnGj+ruGHgEGOtiVOOEPtco9ODS3O78/j0AuXrV2Y/jGbu8EjPvZ7mJWq3B7QPVLtJepZxpg11ixwTMW5qea1TJSZtgu5SRqIglhr8yb9m7Zkjkfa7Zpco6FU2MbYO92cfXF7I4HcUEut/PwkygYUeTsVY1wWJkfu8uvZCCHV04IrTOyhLTQNYJoV/DkAn2RXCBRf2eGumkfbnA==';

describe('WeChat Pay APIv3 request signature (Authorization)', () => {
  const key = createPrivateKey(VECTOR_PRIVATE_KEY);
  const input = { mchid: '1900000001', serialNo: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1', key, method: 'POST', url: '/v3/pay/transactions/native', body: BODY, now: 1_795_000_000_999, nonce: NONCE };

  it('signs METHOD\\nURL\\ntimestamp\\nnonce\\nbody\\n with RSA-SHA256: the vector, field by field', () => {
    expect(authorization(input)).toBe(
      `WECHATPAY2-SHA256-RSA2048 mchid="1900000001",nonce_str="${NONCE}",signature="${SIGNATURE}",timestamp="1795000000",serial_no="5157F09EFDC096DE15EBE81A47057A7232F1B8E1"`,
    );
    // the vector itself holds: the message built here by hand verifies with the key's public half
    const message = `POST\n/v3/pay/transactions/native\n1795000000\n${NONCE}\n${BODY}\n`;
    expect(createVerify('RSA-SHA256').update(message).verify(createPublicKey(key), SIGNATURE, 'base64')).toBe(true);
  });

  it('signs every part: another body, url, method, nonce or second gives another signature', () => {
    const signatureOf = (header: string) => /signature="([^"]+)"/.exec(header)![1];
    for (const change of [{ body: `${BODY} ` }, { url: '/v3/pay/transactions/native?x=1' }, { method: 'GET' }, { nonce: `${NONCE.slice(1)}0` }, { now: 1_795_000_001_000 }]) {
      expect(signatureOf(authorization({ ...input, ...change })), JSON.stringify(change)).not.toBe(SIGNATURE);
    }
  });
});
