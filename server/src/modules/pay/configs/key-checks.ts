import type { KeyObject } from 'node:crypto';
import { fill, messages, type PayConfigField, type PayGateway } from '@huiyun/contract';
import { privateKeyOf, publicKeyOf, loadMerchantCertificate, MerchantCertificateError, merchantNoOf, type MerchantCertificateFault } from '../gateways/index.ts';

// The keys and certificates of a 支付配置, parsed at save with node:crypto the way the gateways will use them
// (gateway/keys.ts, gateway/merchant-certificate.ts): a config that saves is one whose keys load, and a value that
// does not is refused naming its field, not found out at the first sale (支付网关暂不可用) or refund.

const m = messages.payConfig;

/** A field's value after the save (a kept secret opened), and whether the save changes it. */
export type KeyCheckValues = { valueOf: (field: PayConfigField) => string; changed: (field: PayConfigField) => boolean };

type Check = {
  field: PayConfigField;
  /** The fields its outcome depends on: the check runs when one of them changes (a kept value is not checked again). */
  dependsOn: readonly PayConfigField[];
  problem: (value: string, valueOf: (field: PayConfigField) => string) => string | undefined;
};

const label = (field: PayConfigField) => m[field];

function attempt(parse: () => KeyObject): KeyObject | undefined {
  try {
    return parse();
  } catch {
    return undefined;
  }
}

/** A private RSA key (PEM or the bare base64 the platforms show): not garbage, not a public key or certificate. */
function privateKeyProblem(field: PayConfigField) {
  return (value: string): string | undefined => {
    const key = attempt(() => privateKeyOf(value));
    if (!key) return fill(attempt(() => publicKeyOf(value)) ? m.keyNotPrivate : m.keyMalformed, { label: label(field) });
    return key.asymmetricKeyType === 'rsa' ? undefined : fill(m.keyNotRsa, { label: label(field) });
  };
}

/**
 * A public RSA key (or a certificate holding one): not garbage, and never a private key — node:crypto would take
 * one as its public half, and these fields are shown as they are, unmasked.
 */
function publicKeyProblem(field: PayConfigField) {
  return (value: string): string | undefined => {
    if (holdsPrivateKey(value)) return fill(m.keyNotPublic, { label: label(field) });
    const key = attempt(() => publicKeyOf(value));
    if (!key) return fill(m.keyMalformed, { label: label(field) });
    return key.asymmetricKeyType === 'rsa' ? undefined : fill(m.keyNotRsa, { label: label(field) });
  };
}

const certificateFaults: Record<MerchantCertificateFault, string> = {
  malformed: m.apiCertMalformed, password: m.apiCertPassword, legacy: m.apiCertLegacy, noKey: m.apiCertNoKey, noCert: m.apiCertNoCert, mismatch: m.apiCertMismatch,
};

/**
 * The WeChat Pay V2 merchant API certificate: PKCS#12 opened with 证书密码 (else the 商户号), or a PEM certificate
 * with its own key; and issued to this 商户号 (WeChat puts it in the certificate's CN).
 */
function apiCertProblem(value: string, valueOf: (field: PayConfigField) => string): string | undefined {
  const partner = valueOf('partner');
  try {
    const { certificate } = loadMerchantCertificate(value, valueOf('certPassword'), partner);
    const owner = merchantNoOf(certificate);
    return owner === partner ? undefined : fill(m.apiCertMerchant, { label: label('apiCert'), partner, owner: owner || '—' });
  } catch (error) {
    if (error instanceof MerchantCertificateError) return fill(certificateFaults[error.fault], { label: label('apiCert') });
    throw error;
  }
}

/**
 * Whether a text holds private key material (a PEM private key block, or base64 that parses as a private key): a
 * public-key field holding one is shown masked (queries.ts), as any secret is; the save refuses it since the checks.
 */
export function holdsPrivateKey(text: string): boolean {
  return text !== '' && (/PRIVATE KEY/.test(text) || attempt(() => privateKeyOf(text)) !== undefined);
}

const API_V3_KEY_LENGTH = 32;

const checks: Partial<Record<PayGateway, readonly Check[]>> = {
  wechat_v2: [{ field: 'apiCert', dependsOn: ['apiCert', 'certPassword', 'partner'], problem: apiCertProblem }],
  wechat_v3: [
    { field: 'rsaKey', dependsOn: ['rsaKey'], problem: privateKeyProblem('rsaKey') },
    // counted in characters as WeChat shows it (32 ASCII characters)
    { field: 'apiV3Key', dependsOn: ['apiV3Key'], problem: (v) => ([...v].length === API_V3_KEY_LENGTH && !/\s/.test(v) ? undefined : fill(m.keyLength, { label: label('apiV3Key'), length: API_V3_KEY_LENGTH })) },
    { field: 'platformPubKey', dependsOn: ['platformPubKey'], problem: publicKeyProblem('platformPubKey') },
  ],
  alipay: [
    { field: 'appPrivateKey', dependsOn: ['appPrivateKey'], problem: privateKeyProblem('appPrivateKey') },
    { field: 'alipayPublicKey', dependsOn: ['alipayPublicKey'], problem: publicKeyProblem('alipayPublicKey') },
  ],
};

/** The fields that hold keys or certificates a gateway parses (each checked above for the gateways that ask for it). */
export const keyFields: readonly PayConfigField[] = [...new Set(Object.values(checks).flatMap((list) => list.map((c) => c.field)))];

/**
 * The first key or certificate of the config that would not load, as the message naming its field; undefined when
 * all do. An empty value is left to the required-field check; one the save does not change is not checked again.
 */
export function payConfigKeyProblem(gateway: PayGateway, values: KeyCheckValues): string | undefined {
  for (const check of checks[gateway] ?? []) {
    const value = values.valueOf(check.field);
    if (value === '' || !check.dependsOn.some(values.changed)) continue;
    const problem = check.problem(value, values.valueOf);
    if (problem) return problem;
  }
  return undefined;
}
