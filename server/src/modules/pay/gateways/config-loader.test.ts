import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayType } from '@huiyun/contract';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { SecretBox, secretKeyFromBase64, newSecretKeyBase64 } from '../../../infra/secret-box.ts';
import { payConfigPurpose } from './config-secrets.ts';
import { loadPayAccount, PayAccountError } from './config-loader.ts';

// The one loader: a 支付配置 row with its sealed secrets opened once; a secret that does not open names the
// field and the config, never the value.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function insertConfig(values: Record<string, string>) {
  const now = Date.now();
  return (await t.ctx.db.insertInto('pay_config').values({ deptId: 1, name: `加载-${now}`, payType: PayType.wechat, gateway: 'wechat_v3', addTime: now, editTime: now, ...values })
    .returning('id').executeTakeFirstOrThrow()).id;
}

describe('loadPayAccount', () => {
  it('answers the fields and the secrets opened; unset secrets are empty', async () => {
    const box = t.ctx.secrets;
    const id = await insertConfig({
      partner: '1900000001', appid: 'wx123', certSerialNo: 'SERIAL', platformPubKeyId: 'PUB_KEY_ID_01', platformPubKey: 'PEM',
      rsaKey: box.seal(payConfigPurpose('rsaKey'), 'PRIVATE'), apiV3Key: box.seal(payConfigPurpose('apiV3Key'), 'k'.repeat(32)),
      apiCert: box.seal(payConfigPurpose('apiCert'), 'CERT-P12-BASE64'),
    });
    const account = await loadPayAccount(t.ctx.db, box, id);
    expect(account).toMatchObject({ id, gateway: 'wechat_v3', partner: '1900000001', appid: 'wx123', certSerialNo: 'SERIAL', platformPubKeyId: 'PUB_KEY_ID_01', platformPubKey: 'PEM' });
    expect(account!.secrets).toEqual({ partnerKey: '', certPassword: '', rsaKey: 'PRIVATE', apiV3Key: 'k'.repeat(32), appPrivateKey: '', apiCert: 'CERT-P12-BASE64' });
    expect(await loadPayAccount(t.ctx.db, box, 987_654_321)).toBeUndefined();
  });

  it('a secret sealed for another column, or under a key not in the ring, is refused naming the field only', async () => {
    const box = t.ctx.secrets;
    const moved = await insertConfig({ apiV3Key: box.seal(payConfigPurpose('rsaKey'), 'SECRET-VALUE') });
    await expect(loadPayAccount(t.ctx.db, box, moved)).rejects.toThrow(PayAccountError);
    await expect(loadPayAccount(t.ctx.db, box, moved)).rejects.toThrow(new RegExp(`支付配置 ${moved}: apiV3Key`));
    const stranger = new SecretBox(secretKeyFromBase64(newSecretKeyBase64()));
    const foreign = await insertConfig({ partnerKey: stranger.seal(payConfigPurpose('partnerKey'), 'SECRET-VALUE') });
    const error = await loadPayAccount(t.ctx.db, box, foreign).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(PayAccountError);
    expect(String((error as Error).message)).not.toContain('SECRET-VALUE');
  });
});
