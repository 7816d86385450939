import { createPrivateKey, X509Certificate } from 'node:crypto';
import { createSecureContext, type SecureContext } from 'node:tls';

// The WeChat Pay merchant API certificate (apiclient_cert) as a 支付配置 holds it: PKCS#12 in base64 (opened with
// 证书密码, else the 商户号, as WeChat issues it) or PEM certificate + private key pasted together. Loaded the
// one way both its users need: the V2 refund call (its TLS client certificate) and the check at save.

/** Why a certificate does not load: which the operator must fix. */
export type MerchantCertificateFault = 'malformed' | 'password' | 'legacy' | 'noKey' | 'noCert' | 'mismatch';

export class MerchantCertificateError extends Error {
  readonly fault: MerchantCertificateFault;
  constructor(fault: MerchantCertificateFault) {
    // never the certificate, nor its password: only what is wrong with it
    super(`merchant API certificate does not load: ${fault}`);
    this.fault = fault;
  }
}

export type MerchantCertificate = { context: SecureContext; certificate: X509Certificate };

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----/g;

function pemPair(text: string): MerchantCertificate {
  const blocks = [...text.matchAll(PEM_BLOCK)].map((b) => ({ label: b[1]!, pem: b[0] }));
  const cert = blocks.find((b) => b.label === 'CERTIFICATE')?.pem;
  const key = blocks.find((b) => b.label.endsWith('PRIVATE KEY'))?.pem;
  if (!cert && !key) throw new MerchantCertificateError('malformed');
  if (!key) throw new MerchantCertificateError('noKey');
  if (!cert) throw new MerchantCertificateError('noCert');
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
    // an encrypted key has no password here (the TLS call passes none): unreadable as well
    if (!certificate.checkPrivateKey(createPrivateKey(key))) throw new MerchantCertificateError('mismatch');
  } catch (error) {
    if (error instanceof MerchantCertificateError) throw error;
    throw new MerchantCertificateError('malformed');
  }
  try {
    return { context: createSecureContext({ cert, key }), certificate };
  } catch {
    throw new MerchantCertificateError('malformed');
  }
}

function pkcs12(text: string, passphrase: string): MerchantCertificate {
  const bare = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(bare)) throw new MerchantCertificateError('malformed');
  let context: SecureContext;
  try {
    context = createSecureContext({ pfx: Buffer.from(bare, 'base64'), passphrase });
  } catch (error) {
    const reason = error instanceof Error ? error.message : '';
    // OpenSSL: a wrong password fails the file's MAC; RC2 / RC4 (old .p12 files) need OpenSSL 3's legacy provider
    if (/mac verify failure/i.test(reason)) throw new MerchantCertificateError('password');
    if (/unsupported/i.test(reason)) throw new MerchantCertificateError('legacy');
    throw new MerchantCertificateError('malformed');
  }
  const der = (context.context as { getCertificate?: () => Buffer | null }).getCertificate?.();
  if (!der) throw new MerchantCertificateError('noCert');
  try {
    return { context, certificate: new X509Certificate(der) };
  } catch {
    throw new MerchantCertificateError('malformed');
  }
}

/**
 * The certificate with its key, ready for a TLS call (context) and its X.509 (certificate: whose it is).
 * Throws MerchantCertificateError naming what is wrong.
 */
export function loadMerchantCertificate(text: string, password: string, merchantNo: string): MerchantCertificate {
  const t = text.trim();
  if (!t) throw new MerchantCertificateError('malformed');
  return t.includes('-----BEGIN') ? pemPair(t) : pkcs12(t, password || merchantNo);
}

/** The merchant number a WeChat Pay certificate is issued to: its subject's CN. */
export function merchantNoOf(certificate: X509Certificate): string {
  const cn = certificate.subject.split('\n').find((line) => line.startsWith('CN='));
  return cn ? cn.slice(3) : '';
}

/**
 * The certificate as TLS options of a request: PEM certificate + key, or PKCS#12 opened with 证书密码, else the
 * 商户号. The options, not a SecureContext, go to the request, as the https agent tells connections apart by them.
 */
export function merchantTlsOptions(cert: string, certPassword: string, partner: string): { cert: string; key: string } | { pfx: Buffer; passphrase: string } {
  const text = cert.trim();
  return text.includes('-----BEGIN') ? { cert: text, key: text } : { pfx: Buffer.from(text.replace(/\s+/g, ''), 'base64'), passphrase: certPassword || partner };
}
