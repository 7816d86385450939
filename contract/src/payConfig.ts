import { z } from 'zod';
import { common, fill, payConfig as m } from './messages.ts';
import { payTypeOptions, type Option } from './enums.ts';
import { MAX_INT_COLUMN, optionalId, optionalIdOf, optionalText, pageQuery, requiredText } from './fields.ts';

// 支付配置 (SPEC §3 Payment config, §7.6): one gateway account of a company for one pay type. The
// secrets are sealed at rest on the server and only ever leave it masked (secrets.ts maskSecret); a
// masked value sent back means "unchanged", an empty one too; clearing a stored secret is explicit
// (clearSecrets).

/** The pay types a config may have (SPEC §3 Pay types without 0, which is only the filters' 请选择). */
export const configPayTypes: readonly number[] = payTypeOptions.map((o) => o.value);

export const payConfigTextFields = [
  'partner', 'subMchId', 'appid', 'notifyUrl', 'signType', 'sellerUserId', 'certSerialNo', 'platformPubKeyId', 'platformPubKey', 'alipayPublicKey',
] as const;
/**
 * The sealed columns (server/src/infra/sealed-columns.ts lists the same six). apiCert: the WeChat v2 merchant API
 * certificate for refunds, PKCS#12 in base64 (password: certPassword, else the merchant number) or PEM certificate + key.
 */
export const payConfigSecretFields = ['partnerKey', 'certPassword', 'rsaKey', 'apiV3Key', 'appPrivateKey', 'apiCert'] as const;
export type PayConfigTextField = (typeof payConfigTextFields)[number];
export type PayConfigSecretField = (typeof payConfigSecretFields)[number];
export type PayConfigField = PayConfigTextField | PayConfigSecretField;

type GatewaySpec = {
  label: string;
  /** The pay types it serves (the form offers only these gateways for the chosen pay type). */
  payTypes: readonly number[];
  /** The fields it asks for (the form shows only these; the server empties the others) and those it needs. */
  shown: readonly PayConfigField[];
  required: readonly PayConfigField[];
  /** The sign types it offers (none: the gateway has no choice). */
  signTypes?: readonly string[];
  /** Fields given all or none (one without the others is refused, naming the first missing). */
  together?: readonly (readonly PayConfigField[])[];
};

/**
 * Every gateway a config may name, by its pay_config.gateway value: one entry per gateway (with its label
 * in messages/payConfig.ts). The 支付配置 screen, its list and the server's checks read everything here.
 */
const gatewayTable = {
  simulator: { label: m.gatewaySimulator, payTypes: configPayTypes, shown: ['partner', 'notifyUrl', 'partnerKey'], required: [] },
  wechat_v2: {
    label: m.gatewayWechatV2, payTypes: [3], signTypes: ['MD5', 'HMAC-SHA256'],
    shown: ['partner', 'subMchId', 'appid', 'notifyUrl', 'signType', 'partnerKey', 'apiCert', 'certPassword'],
    // apiCert: a v2 refund is a call with the merchant API certificate; a config without it could sell and never refund
    required: ['partner', 'appid', 'notifyUrl', 'signType', 'partnerKey', 'apiCert'],
  },
  wechat_v3: {
    label: m.gatewayWechatV3, payTypes: [3],
    shown: ['partner', 'subMchId', 'appid', 'notifyUrl', 'certSerialNo', 'rsaKey', 'apiV3Key', 'platformPubKeyId', 'platformPubKey'],
    required: ['partner', 'appid', 'notifyUrl', 'certSerialNo', 'rsaKey', 'apiV3Key'],
    // the platform public key mode (new merchants): both; platform certificates (older ones): neither, the
    // server downloads them (/v3/certificates)
    together: [['platformPubKeyId', 'platformPubKey']],
  },
  alipay: {
    label: m.gatewayAlipay, payTypes: [2], signTypes: ['RSA2', 'RSA'],
    shown: ['appid', 'partner', 'sellerUserId', 'notifyUrl', 'signType', 'appPrivateKey', 'alipayPublicKey'],
    required: ['appid', 'notifyUrl', 'signType', 'appPrivateKey', 'alipayPublicKey'],
  },
} as const satisfies Record<string, GatewaySpec>;

/** Which gateway serves a config: the simulator (default, demos and tests), WeChat Pay v2 / v3, Alipay. */
export type PayGateway = keyof typeof gatewayTable;
export const payGateways = Object.keys(gatewayTable) as [PayGateway, ...PayGateway[]];
export const PayGateway = Object.fromEntries(payGateways.map((g) => [g, g])) as { readonly [G in PayGateway]: G };

const specs: Record<PayGateway, GatewaySpec> = gatewayTable;

export const payGatewayOptions: (Option<PayGateway> & { payTypes: readonly number[] })[] = payGateways.map((value) => ({ value, label: specs[value].label, payTypes: specs[value].payTypes }));

/** The gateways that serve a pay type (the form offers only these). */
export const gatewaysOfPayType = (payType: number | undefined) => payGatewayOptions.filter((g) => payType !== undefined && g.payTypes.includes(payType));

/** The fields a gateway asks for (the form shows only these; the server empties the others) and those it needs. */
export const gatewayFields = Object.fromEntries(payGateways.map((g) => [g, { shown: specs[g].shown, required: specs[g].required }])) as Record<PayGateway, Pick<GatewaySpec, 'shown' | 'required'>>;

/** The sign types a gateway offers (none: the gateway has no choice). */
export const gatewaySignTypes: Partial<Record<PayGateway, readonly string[]>> = Object.fromEntries(payGateways.flatMap((g) => (specs[g].signTypes ? [[g, specs[g].signTypes]] : [])));

/** PEM text and keys: several lines. */
export const multilinePayConfigFields: readonly PayConfigField[] = ['platformPubKey', 'alipayPublicKey', 'rsaKey', 'appPrivateKey', 'apiCert'];

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
    ?? (specs[input.gateway].together ?? []).filter((group) => group.some(present)).flatMap((group) => group.filter((name) => !present(name)))[0];
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
