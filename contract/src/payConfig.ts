import { z } from 'zod';
import { common, fill, payConfig as m } from './messages.ts';
import { MAX_INT_COLUMN, optionalId, optionalIdOf, optionalText, pageQuery, requiredText } from './fields.ts';
import { configPayTypes, gatewayFields, gatewaySignTypes, multilinePayConfigFields, PayGateway, payConfigSecretFields, payGateways, type PayConfigField, type PayConfigSecretField, type PayConfigTextField } from './payGateways.ts';

// 支付配置 (SPEC §3 Payment config, §7.6): one gateway account of a company for one pay type. The
// secrets are sealed at rest on the server and only ever leave it masked (secrets.ts maskSecret); a
// masked value sent back means "unchanged", an empty one too; clearing a stored secret is explicit
// (clearSecrets).

const fieldMax: Record<PayConfigField, number> = {
  partner: 64, subMchId: 64, appid: 64, notifyUrl: 255, signType: 16, sellerUserId: 64, certSerialNo: 64,
  platformPubKeyId: 64, platformPubKey: 8000, alipayPublicKey: 8000,
  partnerKey: 8000, certPassword: 8000, rsaKey: 8000, apiV3Key: 8000, appPrivateKey: 8000, apiCert: 20000,
};

const field = (name: PayConfigField) =>
  optionalText(fieldMax[name], fill(m.tooLong, { label: m[name] }), {
    multiline: multilinePayConfigFields.includes(name),
    invalid: fill(m.badText, { label: m[name] }),
  });

/** A number or a numeric string ('' / null: absent). */
const numeric = (v: unknown) => (v === '' || v === null ? undefined : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v);

/** A pay type of SPEC §3 a config may have (not 0). */
export const configPayType = (message: string) =>
  z.preprocess(numeric, z.number({ error: message }).int(message).refine((v) => configPayTypes.includes(v), message));

export const payConfigSave = z.object({
  id: optionalId,
  /** The company (adding only; the caller's own when absent). */
  deptId: optionalIdOf(m.deptRequired),
  name: requiredText(m.nameRequired, 64, fill(m.tooLong, { label: m.name }), { invalid: fill(m.badText, { label: m.name }) }),
  payType: configPayType(m.payTypeRequired),
  gateway: z.preprocess((v) => (v == null || v === '' ? PayGateway.simulator : v), z.enum(payGateways, { error: m.gatewayRequired })),
  partner: field('partner'),
  subMchId: field('subMchId'),
  appid: field('appid'),
  notifyUrl: field('notifyUrl').refine((v) => v === '' || /^https?:\/\/\S+$/i.test(v), m.notifyUrlFormat),
  signType: field('signType'),
  sellerUserId: field('sellerUserId'),
  certSerialNo: field('certSerialNo'),
  platformPubKeyId: field('platformPubKeyId').refine((v) => v === '' || /^PUB_KEY_ID_\w+$/.test(v), m.platformPubKeyIdFormat),
  platformPubKey: field('platformPubKey'),
  alipayPublicKey: field('alipayPublicKey'),
  partnerKey: field('partnerKey'),
  certPassword: field('certPassword'),
  rsaKey: field('rsaKey'),
  apiV3Key: field('apiV3Key'),
  appPrivateKey: field('appPrivateKey'),
  apiCert: field('apiCert'),
  /** The stored secrets to clear (an explicit act: an empty or masked value keeps the stored one). */
  clearSecrets: z.preprocess(
    (v) => (v == null || v === '' ? [] : typeof v === 'string' ? v.split(',').map((s) => s.trim()) : v),
    z.array(z.enum(payConfigSecretFields, { error: common.badParameter }), { error: common.badParameter }).max(payConfigSecretFields.length, common.badParameter),
  ),
});
export type PayConfigSave = z.infer<typeof payConfigSave>;

/**
 * The first field the gateway needs that the config lacks: '请输入商户号' …, or null. `hasSecret` tells
 * whether a secret is there after the save (sent anew, or stored and kept).
 */
export function missingGatewayField(input: Pick<PayConfigSave, 'gateway' | PayConfigTextField>, hasSecret: (field: PayConfigSecretField) => boolean): string | null {
  const present = (name: PayConfigField) => ((payConfigSecretFields as readonly string[]).includes(name) ? hasSecret(name as PayConfigSecretField) : input[name as PayConfigTextField] !== '');
  const missing = gatewayFields[input.gateway].required.find((name) => !present(name))
    ?? gatewayFields[input.gateway].together.filter((group) => group.some(present)).flatMap((group) => group.filter((name) => !present(name)))[0];
  if (missing) return fill(m.fieldRequired, { label: m[missing] });
  const signTypes = gatewaySignTypes[input.gateway];
  if (signTypes && !signTypes.includes(input.signType)) return fill(common.selectPlaceholder, { label: m.signType });
  return null;
}

export const payConfigListQuery = pageQuery.extend({
  name: optionalText(64),
  partner: optionalText(64),
  /** 0 or absent: every pay type (the filter's 请选择). */
  payType: z.preprocess(numeric, z.number({ error: common.badParameter }).int(common.badParameter).min(0, common.badParameter).max(MAX_INT_COLUMN, common.badParameter).default(0)),
});
export type PayConfigListQuery = z.infer<typeof payConfigListQuery>;

/** A config as the API shows it: every secret masked (maskSecret) or '' when not set. */
export type PayConfig = {
  id: number;
  deptId: number;
  deptName: string;
  name: string;
  payType: number;
  gateway: PayGateway;
  partner: string;
  subMchId: string;
  appid: string;
  notifyUrl: string;
  signType: string;
  sellerUserId: string;
  certSerialNo: string;
  platformPubKeyId: string;
  platformPubKey: string;
  alipayPublicKey: string;
  partnerKey: string;
  certPassword: string;
  rsaKey: string;
  apiV3Key: string;
  appPrivateKey: string;
  apiCert: string;
  addUser: string;
  editUser: string;
  addTime: string;
  editTime: string;
};

export const payConfigSortFields = ['name', 'payType', 'partner', 'editTime'] as const;
