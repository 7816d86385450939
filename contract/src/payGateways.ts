import { payConfig as m } from './messages.ts';
import { payTypeOptions, type Option } from './enums.ts';

// 支付配置's gateways and fields, without zod: what its list shows and what its form and the server's
// checks read (payConfig.ts builds the schemas from them), apart from the schemas so that the list's
// first load does not bring zod.

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

/** The fields a gateway asks for (the form shows only these; the server empties the others), those it needs and those given all or none. */
export const gatewayFields = Object.fromEntries(payGateways.map((g) => [g, { shown: specs[g].shown, required: specs[g].required, together: specs[g].together ?? [] }])) as Record<PayGateway, Required<Pick<GatewaySpec, 'shown' | 'required' | 'together'>>>;

/** The sign types a gateway offers (none: the gateway has no choice). */
export const gatewaySignTypes: Partial<Record<PayGateway, readonly string[]>> = Object.fromEntries(payGateways.flatMap((g) => (specs[g].signTypes ? [[g, specs[g].signTypes]] : [])));

/** PEM text and keys: several lines. */
export const multilinePayConfigFields: readonly PayConfigField[] = ['platformPubKey', 'alipayPublicKey', 'rsaKey', 'appPrivateKey', 'apiCert'];
