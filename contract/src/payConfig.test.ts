import { describe, expect, it } from 'vitest';
import { fill, payConfig as m } from './messages.ts';
import { missingGatewayField, payConfigSave } from './payConfig.ts';
import { gatewayFields, gatewaysOfPayType, payGateways } from './payGateways.ts';
import { terminalConfigSave } from './terminalConfig.ts';

const parse = (body: Record<string, unknown>) => payConfigSave.safeParse(body);
const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe('支付配置 contract', () => {
  it('offers each pay type only the gateways that serve it; the simulator serves all', () => {
    expect(gatewaysOfPayType(3).map((g) => g.value)).toEqual(['simulator', 'wechat_v2', 'wechat_v3']);
    expect(gatewaysOfPayType(2).map((g) => g.value)).toEqual(['simulator', 'alipay']);
    expect(gatewaysOfPayType(1).map((g) => g.value)).toEqual(['simulator']);
    expect(gatewaysOfPayType(0)).toEqual([]);
  });

  it('asks each gateway its own fields: WeChat no Alipay keys, Alipay no WeChat keys', () => {
    for (const gateway of payGateways) expect(gatewayFields[gateway].required.every((f) => gatewayFields[gateway].shown.includes(f))).toBe(true);
    expect(gatewayFields.wechat_v3.shown).not.toContain('appPrivateKey');
    expect(gatewayFields.wechat_v3.shown).not.toContain('alipayPublicKey');
    expect(gatewayFields.alipay.shown).not.toContain('apiV3Key');
    expect(gatewayFields.alipay.shown).not.toContain('partnerKey');
  });

  it('defaults to the simulator and refuses pay type 0 and unknown ones', () => {
    expect(parse({ name: 'a', payType: '3' }).data).toMatchObject({ payType: 3, gateway: 'simulator', clearSecrets: [] });
    expect(firstMessage(parse({ name: 'a', payType: 0 }))).toBe(m.payTypeRequired);
    expect(firstMessage(parse({ name: 'a', payType: 7 }))).toBe(m.payTypeRequired);
    expect(firstMessage(parse({ name: 'a', payType: 1, gateway: 'x' }))).toBe(m.gatewayRequired);
    expect(parse({ name: 'a', payType: 1, clearSecrets: 'partnerKey,apiV3Key' }).data?.clearSecrets).toEqual(['partnerKey', 'apiV3Key']);
    expect(parse({ name: 'a', payType: 1, clearSecrets: ['name'] }).success).toBe(false);
  });

  it('names the first field a gateway lacks', () => {
    const input = parse({ name: 'a', payType: 3, gateway: 'wechat_v2', partner: '190', appid: 'wx', notifyUrl: 'https://x/n', signType: 'MD5' }).data!;
    expect(missingGatewayField(input, () => false)).toBe(fill(m.fieldRequired, { label: m.partnerKey }));
    expect(missingGatewayField(input, (field) => field !== 'apiCert')).toBe(fill(m.fieldRequired, { label: m.apiCert })); // v2 refunds need it
    expect(missingGatewayField(input, () => true)).toBeNull();
    expect(missingGatewayField({ ...input, signType: 'RSA2' }, () => true)).toBe('请选择签名方式');
    expect(missingGatewayField({ ...input, gateway: 'simulator' }, () => false)).toBeNull();
    // WeChat V3: the platform public key and its id both (public key mode) or neither (platform certificates)
    const v3 = { ...input, gateway: 'wechat_v3' as const, signType: '', certSerialNo: 'SN', platformPubKeyId: '', platformPubKey: '' };
    expect(missingGatewayField(v3, () => true)).toBeNull();
    expect(missingGatewayField({ ...v3, platformPubKeyId: 'PUB_KEY_ID_01' }, () => true)).toBe(fill(m.fieldRequired, { label: m.platformPubKey }));
    expect(missingGatewayField({ ...v3, platformPubKey: 'PEM' }, () => true)).toBe(fill(m.fieldRequired, { label: m.platformPubKeyId }));
    expect(missingGatewayField({ ...v3, platformPubKeyId: 'PUB_KEY_ID_01', platformPubKey: 'PEM' }, () => true)).toBeNull();
  });
});

describe('终端支付配置 contract', () => {
  it('answers the SPEC §5 texts', () => {
    const ok = { machineNo: 'M1', payType: 1, configId: 5, configName: '现金', payOpen: 'T' };
    expect(terminalConfigSave.safeParse(ok).success).toBe(true);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, machineNo: '' }, '请输入终端号'],
      [{ ...ok, payType: undefined }, '请选择支付方式'],
      [{ ...ok, configId: undefined }, '请输入配置序号'],
      [{ ...ok, configName: '' }, '请输入显示名称'],
      [{ ...ok, payOpen: '' }, '请选择状态'],
    ];
    for (const [body, message] of cases) expect(firstMessage(terminalConfigSave.safeParse(body))).toBe(message);
  });
});
