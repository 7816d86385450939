import { X509Certificate, type KeyObject } from 'node:crypto';
import { loadBeforeSending, type PayAccount } from '../gateway.ts';
import { privateKeyOf, publicKeyOf } from '../keys.ts';
import { authorization, decryptResource, verifySigned, type EncryptedResource } from './crypto.ts';

// A WeChat Pay APIv3 client on fetch: each request signed with the merchant API key, each answer
// verified with a platform key. Platform keys: the WeChat Pay public key (PUB_KEY_ID_…, new merchants)
// from the 支付配置, and/or the platform certificates downloaded from /v3/certificates (older merchants),
// kept 12 hours and fetched again when a notification names a serial not yet known.

export class WechatApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export type WechatAnswer = { status: number; data: Record<string, unknown> | undefined };

type CertSet = { keys: Map<string, KeyObject>; at: number };
const CERTS_TTL_MS = 12 * 3_600_000;
/** An API call that has not answered by then has failed (the APIv2 client's timeout). */
const CALL_TIMEOUT_MS = 15_000;

export class WechatV3Client {
  private readonly certs = new Map<number, CertSet>();

  private readonly options: { baseUrl: string; now: () => number };
  constructor(options: { baseUrl: string; now: () => number }) {
    this.options = options;
  }

  /** A signed call; throws WechatApiError on a 4xx/5xx, and GatewayVerifyError when a 2xx answer's signature fails. */
  async call(account: PayAccount, method: 'GET' | 'POST', pathAndQuery: string, body?: object): Promise<WechatAnswer> {
    const certificates = pathAndQuery.startsWith('/v3/certificates');
    // the key the answer will be verified with, loaded before the call leaves: a call whose answer could not be
    // read would be sent for nothing (a refund made at WeChat, never known here)
    if (!certificates && account.platformPubKeyId && account.platformPubKey) loadBeforeSending('platformPubKey', () => publicKeyOf(account.platformPubKey));
    const raw = await this.send(account, method, pathAndQuery, body);
    if (raw.status >= 300) {
      const error = safeJson(raw.text) ?? {};
      throw new WechatApiError(raw.status, String(error.code ?? 'HTTP_' + raw.status), String(error.message ?? raw.text.slice(0, 200)));
    }
    const keys = certificates ? undefined : await this.keysFor(account);
    const lookup = keys ?? this.keysFromCertificateAnswer(account, raw.text);
    verifySigned(raw.headers, raw.text, (serial) => lookup.get(serial), this.options.now());
    return { status: raw.status, data: raw.text ? safeJson(raw.text) : undefined };
  }

  /** The bytes at a download_url (bills): signed request, unsigned answer (the caller checks its hash). */
  async download(account: PayAccount, url: string): Promise<Buffer> {
    const target = new URL(url);
    const answer = await fetch(`${this.options.baseUrl}${target.pathname}${target.search}`, { headers: this.headers(account, 'GET', `${target.pathname}${target.search}`, '') });
    if (!answer.ok) throw new WechatApiError(answer.status, 'DOWNLOAD_FAILED', `bill download answered ${answer.status}`);
    return Buffer.from(await answer.arrayBuffer());
  }

  /** The platform keys of an account by serial; `refresh` fetches the certificates again (an unknown serial). */
  async keysFor(account: PayAccount, refresh = false): Promise<Map<string, KeyObject>> {
    const keys = new Map<string, KeyObject>();
    if (account.platformPubKeyId && account.platformPubKey) keys.set(account.platformPubKeyId, publicKeyOf(account.platformPubKey));
    if (keys.size > 0 && !refresh && !this.certs.has(account.id)) return keys;
    let set = this.certs.get(account.id);
    if (refresh || !set || this.options.now() - set.at > CERTS_TTL_MS) {
      try {
        const answer = await this.call(account, 'GET', '/v3/certificates');
        set = { keys: this.certificateKeys(account, answer.data), at: this.options.now() };
        this.certs.set(account.id, set);
      } catch (error) {
        if (keys.size === 0) throw error; // public key mode alone still works
      }
    }
    for (const [serial, key] of set?.keys ?? []) keys.set(serial, key);
    return keys;
  }

  /** A signed call's raw answer, whatever its status, its signature not yet checked (call checks it; 检测 looks at both). */
  async send(account: PayAccount, method: string, pathAndQuery: string, body?: object) {
    const text = body === undefined ? '' : JSON.stringify(body);
    const answer = await fetch(`${this.options.baseUrl}${pathAndQuery}`, {
      method, signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      headers: { ...this.headers(account, method, pathAndQuery, text), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: text }),
    });
    return { status: answer.status, headers: Object.fromEntries(answer.headers), text: await answer.text() };
  }

  private headers(account: PayAccount, method: string, url: string, body: string) {
    const key = loadBeforeSending('rsaKey', () => privateKeyOf(account.secrets.rsaKey));
    const auth = authorization({ mchid: account.partner, serialNo: account.certSerialNo, key, method, url, body, now: this.options.now() });
    return { authorization: auth, accept: 'application/json', 'user-agent': 'huiyun-console' };
  }

  /** /v3/certificates answers with the certificates that sign it: verified against themselves (WeChat's bootstrap rule). */
  private keysFromCertificateAnswer(account: PayAccount, text: string): Map<string, KeyObject> {
    return this.certificateKeys(account, safeJson(text));
  }

  private certificateKeys(account: PayAccount, data: Record<string, unknown> | undefined): Map<string, KeyObject> {
    const keys = new Map<string, KeyObject>();
    for (const item of (data?.data as { serial_no: string; encrypt_certificate: EncryptedResource }[] | undefined) ?? []) {
      const pem = decryptResource(item.encrypt_certificate, account.secrets.apiV3Key);
      keys.set(item.serial_no, new X509Certificate(pem).publicKey);
    }
    return keys;
  }
}

function safeJson(text: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
