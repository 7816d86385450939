import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fill, maskSecret, messages, OrderStatus, SECRET_MASK } from '@huiyun/contract';
import { sealPurpose } from '../../../infra/sealed-columns.ts';
import { insertOrder } from '../../../test/orders.ts';
import { readXlsxExport } from '../../../test/xlsx-export.ts';
import { twoCompanies } from '../../../test/companies.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { TEST_API_V3_KEY, testMerchantCertificate, testRsaKeys } from '../../../test/pay-keys.ts';

const m = messages.payConfig;
let t: TestApp;
let dataDir: string;
let admin: string;
let adminA: string;
let adminB: string;
let userA: string;
let companyA: number;
let companyB: number;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-payconfig-'));
  t = await startTestApp({ DATA_DIR: dataDir });
  ({ companyA, companyB, admin, adminA, adminB, userA } = await twoCompanies(t, 'pc', '支付'));
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const save = (token: string, body: Record<string, unknown>) => t.call('POST', '/api/Config/save', { token, body });
const list = (token: string, body: Record<string, unknown> = {}) => t.call('POST', '/api/Config/list', { token, body: { page: 1, limit: 50, ...body } });
const remove = (token: string, ids: string) => t.call('DELETE', `/api/Config/delete?ids=${ids}`, { token });
const stored = (id: number) => t.ctx.db.selectFrom('pay_config').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const open = (column: string, sealed: string) => t.ctx.secrets.open(sealPurpose('pay_config', column), sealed);
const count = async () => Number((await t.ctx.db.selectFrom('pay_config').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

const wechatV3 = {
  name: '微信V3商户', payType: 3, gateway: 'wechat_v3', partner: '1900000109', subMchId: '', appid: 'wxd678efh567hg6787',
  notifyUrl: 'https://pay.example.com/notify', certSerialNo: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
  rsaKey: testRsaKeys('merchant').privatePem,
  apiV3Key: TEST_API_V3_KEY, platformPubKeyId: 'PUB_KEY_ID_0114232134912410000000000000',
  platformPubKey: testRsaKeys('platform').publicPem,
};

describe('支付配置', () => {
  it('adds, lists masked, edits, keeps a masked secret, clears one explicitly, deletes', async () => {
    const added = await save(adminA, { ...wechatV3, partnerKey: 'not-asked-by-v3', appPrivateKey: 'alipay-key-not-asked' });
    expect(added.body).toMatchObject({ success: true, msg: m.saved });
    const id = added.body.data.id as number;

    const row = await stored(id);
    expect(row.deptId).toBe(companyA);
    expect(row.apiV3Key).toMatch(/^s1\./);
    expect(open('apiV3Key', row.apiV3Key)).toBe(wechatV3.apiV3Key);
    expect(open('rsaKey', row.rsaKey)).toBe(wechatV3.rsaKey);
    // fields the gateway does not ask for are not kept
    expect([row.partnerKey, row.appPrivateKey]).toEqual(['', '']);

    const listed = (await list(adminA, { name: '微信V3' })).body;
    expect(listed.total).toBe(1);
    expect(listed.data[0]).toMatchObject({
      id, deptId: companyA, deptName: '支付A公司', payType: 3, gateway: 'wechat_v3', partner: '1900000109',
      apiV3Key: maskSecret(wechatV3.apiV3Key), rsaKey: maskSecret(wechatV3.rsaKey), partnerKey: '', appPrivateKey: '', certPassword: '',
    });
    expect(listed.data[0].apiV3Key).toBe(`APIv${SECRET_MASK}DEFG`);

    // The row as listed, saved back unchanged: every secret kept.
    const unchanged = await save(adminA, { ...listed.data[0], name: '微信V3商户-改' });
    expect(unchanged.body.success).toBe(true);
    const kept = await stored(id);
    expect(open('apiV3Key', kept.apiV3Key)).toBe(wechatV3.apiV3Key);
    expect(open('rsaKey', kept.rsaKey)).toBe(wechatV3.rsaKey);
    expect(kept.name).toBe('微信V3商户-改');

    // Empty also keeps; a new value replaces.
    const newKey = testRsaKeys('merchant-new').privateBase64; // bare base64, as the merchant platform shows it
    expect((await save(adminA, { ...listed.data[0], apiV3Key: '', rsaKey: newKey })).body.success).toBe(true);
    const replaced = await stored(id);
    expect(open('apiV3Key', replaced.apiV3Key)).toBe(wechatV3.apiV3Key);
    expect(open('rsaKey', replaced.rsaKey)).toBe(newKey);

    // An outdated mask (of the secret before the replacement) is not taken for the stored one.
    const stale = await save(adminA, { ...listed.data[0] });
    expect(stale.body.msg).toBe(fill(m.secretMasked, { label: m.rsaKey }));
    const current = (await list(adminA, { name: '微信V3' })).body.data[0];

    // Clearing a secret the gateway needs is refused; on the simulator it is allowed.
    const refused = await save(adminA, { ...current, clearSecrets: ['apiV3Key'] });
    expect(refused.body.msg).toBe(fill(m.fieldRequired, { label: m.apiV3Key }));
    expect(open('apiV3Key', (await stored(id)).apiV3Key)).toBe(wechatV3.apiV3Key);

    // A text holding the mask that is not the stored secret's mask is refused, never stored.
    const wrongMask = await save(adminA, { ...current, apiV3Key: `abcd${SECRET_MASK}wxyz` });
    expect(wrongMask.body.msg).toBe(fill(m.secretMasked, { label: m.apiV3Key }));

    expect((await remove(adminA, String(id))).body).toMatchObject({ success: true, msg: m.deleted });
    expect((await list(adminA, { name: '微信V3' })).body.total).toBe(0);
  });

  it('clears a stored secret only when asked', async () => {
    const id = (await save(adminA, { name: '模拟网关配置', payType: 1, gateway: 'simulator', partnerKey: 'simulator-secret-1234' })).body.data.id;
    const shown = (await list(adminA, { name: '模拟网关配置' })).body.data[0];
    expect(shown.partnerKey).toBe(maskSecret('simulator-secret-1234'));
    await save(adminA, { ...shown });
    expect(open('partnerKey', (await stored(id)).partnerKey)).toBe('simulator-secret-1234');
    const cleared = await save(adminA, { ...shown, clearSecrets: 'partnerKey' });
    expect(cleared.body.success).toBe(true);
    expect((await stored(id)).partnerKey).toBe('');
    expect((await list(adminA, { name: '模拟网关配置' })).body.data[0].partnerKey).toBe('');
    // A short secret: its mask is the bare ******, and sending that back keeps it.
    await save(adminA, { ...shown, partnerKey: 'abc12' });
    expect((await list(adminA, { name: '模拟网关配置' })).body.data[0].partnerKey).toBe(SECRET_MASK);
    await save(adminA, { ...shown, partnerKey: SECRET_MASK });
    expect(open('partnerKey', (await stored(id)).partnerKey)).toBe('abc12');
    await remove(adminA, String(id));
  });

  it('needs the API certificate under WeChat V2 (its refunds): a masked save keeps it, clearing it is refused', async () => {
    const v2 = { name: '微信V2证书', payType: 3, gateway: 'wechat_v2', partner: '1900000111', appid: 'wx-v2', notifyUrl: 'https://pay.example.com/n', signType: 'MD5', partnerKey: 'v2-key-0123456789abcdef0123456789' };
    const p12 = testMerchantCertificate('1900000111').p12Base64;
    expect((await save(adminA, v2)).body).toMatchObject({ success: false, msg: fill(m.fieldRequired, { label: m.apiCert }) });
    const id = (await save(adminA, { ...v2, apiCert: p12 })).body.data.id;
    const shown = (await list(adminA, { name: '微信V2证书' })).body.data[0];
    expect(shown.apiCert).toBe(maskSecret(p12));
    expect((await save(adminA, { ...shown, name: '微信V2证书-改' })).body.success).toBe(true); // masked: kept
    expect(open('apiCert', (await stored(id)).apiCert)).toBe(p12);
    expect((await save(adminA, { ...shown, apiCert: '' })).body.success).toBe(true); // empty: kept as well
    const cleared = await save(adminA, { ...shown, clearSecrets: 'apiCert' });
    expect(cleared.body).toMatchObject({ success: false, msg: fill(m.fieldRequired, { label: m.apiCert }) });
    expect(open('apiCert', (await stored(id)).apiCert)).toBe(p12);
    await remove(adminA, String(id));
  });

  it('saves a WeChat V3 config of the platform certificate mode: no platform public key nor its id (older merchants)', async () => {
    const saved = await save(adminA, { ...wechatV3, name: '微信V3平台证书', platformPubKeyId: '', platformPubKey: '' });
    expect(saved.body.success, saved.body.msg).toBe(true);
    expect(await stored(saved.body.data.id)).toMatchObject({ gateway: 'wechat_v3', platformPubKeyId: '', platformPubKey: '', certSerialNo: wechatV3.certSerialNo });
    await remove(adminA, String(saved.body.data.id));
  });

  it('answers each bad field its own Chinese message and writes nothing', async () => {
    const before = await count();
    const base = { name: '坏输入', payType: 1, gateway: 'simulator' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, name: '' }, m.nameRequired],
      [{ ...base, payType: 0 }, m.payTypeRequired],
      [{ ...base, payType: 7 }, m.payTypeRequired],
      [{ ...base, payType: 'abc' }, m.payTypeRequired],
      [{ ...base, payType: undefined }, m.payTypeRequired],
      [{ ...base, gateway: 'paypal' }, m.gatewayRequired],
      [{ ...base, gateway: 'alipay', payType: 3 }, fill(m.gatewayPayType, { gateway: m.gatewayAlipay })],
      [{ ...base, notifyUrl: 'ftp://x' }, m.notifyUrlFormat],
      [{ ...base, name: 'x'.repeat(65) }, fill(m.tooLong, { label: m.name })],
      [{ ...base, partnerKey: 'k'.repeat(8001) }, fill(m.tooLong, { label: m.partnerKey })],
      [{ ...base, partner: 'a\u0000b' }, fill(m.badText, { label: m.partner })],
      [{ ...wechatV3, partner: '' }, fill(m.fieldRequired, { label: m.partner })],
      [{ ...wechatV3, apiV3Key: '' }, fill(m.fieldRequired, { label: m.apiV3Key })],
      [{ ...wechatV3, platformPubKeyId: 'abc' }, m.platformPubKeyIdFormat],
      [{ ...wechatV3, platformPubKey: '' }, fill(m.fieldRequired, { label: m.platformPubKey })], // the id without its key
      [{ name: '支付宝', payType: 2, gateway: 'alipay', appid: '2021', notifyUrl: 'https://a.b/n', signType: 'SHA1', appPrivateKey: testRsaKeys('app').privatePem, alipayPublicKey: testRsaKeys('alipay').publicPem }, fill(messages.common.selectPlaceholder, { label: m.signType })],
      [{ ...base, deptId: companyB }, messages.common.outOfScope],
      [{ ...base, id: 999999 }, messages.common.notFoundRecord],
    ];
    for (const [body, message] of cases) {
      const answer = await save(adminA, body);
      expect(answer.body, JSON.stringify(body).slice(0, 120)).toMatchObject({ success: false, msg: message });
      expect(answer.status).toBeLessThan(500);
    }
    // 10 MB in one field: refused with a Chinese message before anything is read.
    const huge = await t.call('POST', '/api/Config/save', { token: adminA, body: JSON.stringify({ ...base, partnerKey: 'x'.repeat(10 * 1024 * 1024) }), headers: { 'content-type': 'application/json' } });
    expect(huge.status).toBe(413);
    expect(huge.body.msg).toBe(messages.common.bodyTooLarge);
    expect(await count()).toBe(before);
  });

  it('keeps each company to its own configs; the super administrator sees all; ordinary users have no payment menu', async () => {
    const a = (await save(adminA, { name: '范围A', payType: 1 })).body.data.id;
    const b = (await save(adminB, { name: '范围B', payType: 1 })).body.data.id;
    const byAdmin = (await save(admin, { name: '范围B2', payType: 1, deptId: companyB })).body.data.id;
    expect((await stored(byAdmin)).deptId).toBe(companyB);

    const namesOf = async (token: string) => (await list(token, { name: '范围' })).body.data.map((r: { name: string }) => r.name).sort();
    expect(await namesOf(adminA)).toEqual(['范围A']);
    expect(await namesOf(adminB)).toEqual(['范围B', '范围B2']);
    expect(await namesOf(admin)).toEqual(['范围A', '范围B', '范围B2']);

    // A's administrator can neither edit nor delete B's config, nor move its own to B.
    expect((await save(adminA, { id: b, name: '偷改', payType: 1 })).body.msg).toBe(messages.common.outOfScope);
    expect((await remove(adminA, `${a},${b}`)).body.msg).toBe(messages.common.outOfScope);
    expect((await stored(a)).name).toBe('范围A');
    await save(adminA, { id: a, name: '范围A', payType: 1, deptId: companyB });
    expect((await stored(a)).deptId).toBe(companyA);

    expect((await list(userA)).body.msg).toBe(messages.common.forbidden);
    expect((await save(userA, { name: 'x', payType: 1 })).body.msg).toBe(messages.common.forbidden);
    const me = await t.call('GET', '/sync/currentUser', { token: userA });
    expect(me.body.success).toBe(true);
    expect(me.raw.body).toContain('/task/index');
    expect(me.raw.body).not.toContain('/pay/Config');
    const meA = await t.call('GET', '/sync/currentUser', { token: adminA });
    expect(meA.raw.body).toContain('/pay/Config');

    // The companies offered when adding: the caller's scope.
    const deptsOf = async (token: string) => (await t.call('POST', '/api/Dept/choices', { token, body: {} })).body.data.map((d: { deptId: number }) => d.deptId);
    expect(await deptsOf(adminA)).toEqual([companyA]);
    expect(await deptsOf(admin)).toEqual(expect.arrayContaining([companyA, companyB]));

    await remove(admin, `${a},${b},${byAdmin}`);
  });

  it('filters by name, pay type and merchant number; exports which secrets are set, never their masks', async () => {
    await save(adminA, { name: '筛选-现金', payType: 1, partner: 'MCH-001', partnerKey: 'export-secret-0123456789' });
    await save(adminA, { name: '筛选-微信', payType: 3, partner: 'MCH-002' });
    expect((await list(adminA, { name: '筛选' })).body.total).toBe(2);
    expect((await list(adminA, { name: '筛选', payType: 3 })).body.data.map((r: { name: string }) => r.name)).toEqual(['筛选-微信']);
    expect((await list(adminA, { name: '筛选', payType: 0 })).body.total).toBe(2);
    expect((await list(adminA, { partner: 'mch-001' })).body.data.map((r: { name: string }) => r.name)).toEqual(['筛选-现金']);
    const { raw } = await t.call('POST', '/api/Config/export', { token: adminA, body: { name: '筛选', payType: 1 } });
    const sheet = await readXlsxExport(raw, m.title);
    expect(sheet[0]).toContain(m.secretsColumn);
    expect(sheet).toHaveLength(2);
    expect(sheet[1]).toEqual(expect.arrayContaining(['筛选-现金', '现金', m.gatewaySimulator, 'MCH-001', `${m.partnerKey}${m.secretSet}`]));
    expect(JSON.stringify(sheet)).not.toContain(maskSecret('export-secret-0123456789'));
  });

  it('refuses to delete a config a 终端支付配置 uses, or to change its pay type', async () => {
    const id = (await save(adminA, { name: '已绑定配置', payType: 1 })).body.data.id;
    const now = Date.now();
    await t.ctx.db.insertInto('pay_machine').values({
      machineNo: 'PC-BOUND-01', machineName: '绑定测试机', deptId: companyA, terminalKey: t.ctx.secrets.seal(sealPurpose('pay_machine', 'terminalKey'), 'k'), addTime: now, editTime: now,
    }).execute();
    const bound = await t.call('POST', '/api/MachineConfig/save', { token: adminA, body: { machineNo: 'PC-BOUND-01', payType: 1, configId: id, configName: '现金', payOpen: 'T' } });
    expect(bound.body.success).toBe(true);
    const refused = await remove(adminA, String(id));
    expect(refused.body.msg).toBe(fill(m.boundByTerminal, { name: '已绑定配置', count: 1 }));
    expect((await save(adminA, { id, name: '已绑定配置', payType: 3 })).body.msg).toBe(m.payTypeChangeBound);
    expect((await stored(id)).payType).toBe(1);
    await t.call('DELETE', `/api/MachineConfig/delete?ids=${bound.body.data.tcId}`, { token: adminA });
    expect((await remove(adminA, String(id))).body.success).toBe(true);
  });

  it('refuses to move a config to another company (its terminals and orders stay with the first)', async () => {
    const id = (await save(admin, { name: '公司固定', payType: 1, deptId: companyA })).body.data.id;
    expect((await save(admin, { id, name: '公司固定', payType: 1, deptId: companyB })).body.msg).toBe(m.deptFixed);
    expect(await stored(id)).toMatchObject({ deptId: companyA });
    expect((await save(admin, { id, name: '公司固定-改名', payType: 1, deptId: companyA })).body.success).toBe(true);
    expect((await save(admin, { id, name: '公司固定-再改', payType: 1 })).body.success).toBe(true);
  });

  it('refuses to delete a config its orders were paid with (refunds need its keys)', async () => {
    const id = (await save(adminA, { name: '有订单的配置', payType: 3 })).body.data.id;
    await insertOrder(t.ctx.db, { deptId: companyA, orderNo: `PC-ORDER-${id}`, machineNo: 'PC-ORDER', configId: id }); // paid and dispensed
    expect((await remove(adminA, String(id))).body.msg).toBe(fill(m.usedByOrders, { name: '有订单的配置' }));
    expect(await stored(id)).toMatchObject({ name: '有订单的配置' });
  });

  it('refuses to change the gateway of a config its orders use, with its name in the message', async () => {
    const wechatV2 = { gateway: 'wechat_v2', partner: '1900000109', appid: 'wx1', notifyUrl: 'https://pay.example.com/notify', signType: 'MD5', partnerKey: 'k'.repeat(32), apiCert: testMerchantCertificate('1900000109').p12Base64 };
    const id = (await save(adminA, { name: '换网关配置', payType: 3 })).body.data.id;
    expect((await save(adminA, { id, name: '换网关配置', payType: 3, ...wechatV2 })).body.success).toBe(true); // no order yet
    expect((await save(adminA, { id, name: '换网关配置', payType: 3, gateway: 'simulator' })).body.success).toBe(true);
    await insertOrder(t.ctx.db, { deptId: companyA, orderNo: `PC-GW-${id}`, machineNo: 'PC-GW', orderStatus: OrderStatus.processing, payTime: null, configId: id });
    const refused = await save(adminA, { id, name: '换网关配置', payType: 3, ...wechatV2 });
    expect(refused.body).toMatchObject({ success: false, msg: fill(m.gatewayChangeUsed, { name: '换网关配置' }) });
    expect(await stored(id)).toMatchObject({ gateway: 'simulator' });
    expect((await save(adminA, { id, name: '换网关配置-改名', payType: 3, gateway: 'simulator' })).body.success).toBe(true); // the rest may change
  });

  it('parses every key at save: a malformed one is refused naming its field and nothing is written; a kept one is not checked again', async () => {
    const v2 = { name: '密钥检查V2', payType: 3, gateway: 'wechat_v2', partner: '1900000111', appid: 'wx-v2', notifyUrl: 'https://pay.example.com/n', signType: 'MD5', partnerKey: 'k'.repeat(32) };
    const alipay = { name: '密钥检查支付宝', payType: 2, gateway: 'alipay', appid: '2021000000000001', notifyUrl: 'https://pay.example.com/n', signType: 'RSA2', appPrivateKey: testRsaKeys('app').privatePem, alipayPublicKey: testRsaKeys('alipay').publicPem };
    const cert = testMerchantCertificate('1900000111');
    const before = await count();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...v2, apiCert: 'MIIKbAIBAzCCCjIGCSqGSIb3DQEHAaCC' }, fill(m.apiCertMalformed, { label: m.apiCert })],
      [{ ...v2, apiCert: cert.p12Base64, certPassword: 'wrong-password' }, fill(m.apiCertPassword, { label: m.apiCert })],
      [{ ...v2, apiCert: testMerchantCertificate('1900000109').p12Base64, certPassword: '1900000109' }, fill(m.apiCertMerchant, { label: m.apiCert, partner: '1900000111', owner: '1900000109' })],
      [{ ...v2, apiCert: cert.clientCertPem }, fill(m.apiCertNoKey, { label: m.apiCert })],
      [{ ...wechatV3, rsaKey: testRsaKeys('merchant').publicPem }, fill(m.keyNotPrivate, { label: m.rsaKey })],
      [{ ...wechatV3, apiV3Key: 'APIv3Key-0123456789abcdefABCDEF' }, fill(m.keyLength, { label: m.apiV3Key, length: 32 })],
      [{ ...wechatV3, platformPubKey: 'PEM' }, fill(m.keyMalformed, { label: m.platformPubKey })],
      [{ ...alipay, appPrivateKey: 'k' }, fill(m.keyMalformed, { label: m.appPrivateKey })],
      [{ ...alipay, alipayPublicKey: testRsaKeys('alipay').privatePem }, fill(m.keyNotPublic, { label: m.alipayPublicKey })],
    ];
    for (const [body, message] of cases) expect((await save(adminA, body)).body, message).toMatchObject({ success: false, msg: message });
    expect(await count()).toBe(before);

    // saved with keys that load; sent back masked (unchanged): kept without a check, even one stored broken before the checks
    const id = (await save(adminA, { ...v2, apiCert: cert.p12Base64 })).body.data.id as number;
    await t.ctx.db.updateTable('pay_config').set({ apiCert: t.ctx.secrets.seal(sealPurpose('pay_config', 'apiCert'), 'stored-before-the-checks') }).where('id', '=', id).execute();
    const shown = (await list(adminA, { name: '密钥检查V2' })).body.data[0];
    expect((await save(adminA, { ...shown, name: '密钥检查V2-改' })).body).toMatchObject({ success: true, msg: m.saved });
    // a new 证书密码 checks the stored certificate with it
    await save(adminA, { ...shown, apiCert: cert.p12Base64 });
    const again = (await list(adminA, { name: '密钥检查V2' })).body.data[0];
    expect((await save(adminA, { ...again, certPassword: 'wrong-password' })).body).toMatchObject({ success: false, msg: fill(m.apiCertPassword, { label: m.apiCert }) });
    expect((await save(adminA, { ...again, certPassword: '1900000111' })).body.success).toBe(true);
    await remove(adminA, String(id));
  });

  it('never shows key material unmasked: a private key stored in a public-key field before the checks is listed masked, and the export has no key', async () => {
    const now = Date.now();
    const privatePem = testRsaKeys('pasted-by-mistake').privatePem;
    const { id } = await t.ctx.db.insertInto('pay_config').values({
      deptId: companyA, name: '公钥栏里的私钥', payType: 2, gateway: 'alipay', appid: '2021000000000002', notifyUrl: 'https://pay.example.com/n', signType: 'RSA2',
      alipayPublicKey: privatePem, platformPubKey: testRsaKeys('pasted-by-mistake').privateBase64, addTime: now, editTime: now,
    }).returning('id').executeTakeFirstOrThrow();
    const shown = (await list(adminA, { name: '公钥栏里的私钥' })).body.data[0];
    expect(shown).toMatchObject({ id, alipayPublicKey: SECRET_MASK, platformPubKey: SECRET_MASK });
    const body = JSON.stringify((await list(admin, {})).body);
    expect(body).not.toContain('PRIVATE KEY');
    expect(body).not.toContain(testRsaKeys('pasted-by-mistake').privateBase64.slice(40, 80));
    // a public key is shown as it is (no secret)
    const publicPem = testRsaKeys('alipay').publicPem;
    await t.ctx.db.updateTable('pay_config').set({ alipayPublicKey: publicPem, platformPubKey: '' }).where('id', '=', id).execute();
    expect((await list(adminA, { name: '公钥栏里的私钥' })).body.data[0]).toMatchObject({ alipayPublicKey: publicPem, platformPubKey: '' });
    await t.ctx.db.updateTable('pay_config').set({ alipayPublicKey: privatePem }).where('id', '=', id).execute();
    const { raw } = await t.call('POST', '/api/Config/export', { token: adminA, body: { name: '公钥栏里的私钥' } });
    const sheet = JSON.stringify(await readXlsxExport(raw, m.title));
    expect(sheet).toContain('公钥栏里的私钥');
    expect(sheet).not.toContain('PRIVATE KEY');
    expect(sheet).not.toContain(privatePem.split('\n')[1]!);
    await t.ctx.db.deleteFrom('pay_config').where('id', '=', id).execute();
  });

  it('logs every change in the operation log by name, never a secret', async () => {
    const id = (await save(adminA, { name: '日志配置', payType: 1, partnerKey: 'log-secret-0123456789' })).body.data.id;
    await remove(adminA, String(id));
    const logs = await t.ctx.db.selectFrom('sys_oper_log').selectAll().where('module', '=', m.title).orderBy('operId', 'desc').limit(2).execute();
    expect(logs.map((l) => l.action)).toEqual([messages.common.actionDelete, messages.common.actionSave]);
    expect(logs[1]!.target).toBe('日志配置');
    expect(JSON.stringify(logs)).not.toContain('log-secret-0123456789');
  });
});
