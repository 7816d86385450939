import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { randomBytes } from 'node:crypto';
import { GatewayNotSentError, loadBeforeSending, type PayAccount } from '../gateway.ts';
import { loadMerchantCertificate, merchantTlsOptions } from '../merchant-certificate.ts';
import { parseXml, sign, signatureValid, toXml, type Fields, type SignType } from './sign.ts';

// WeChat Pay APIv2 calls: signed XML posted, the answer's sign checked (when it carries one). Refunds
// go over HTTPS with the merchant API certificate (PKCS#12 in base64, password = certPassword or the
// merchant number; or PEM certificate + key) — taken from the 支付配置, never from a file on the server.

export class WechatV2Error extends Error {}

export const signTypeOf = (account: PayAccount): SignType => (account.signType === 'HMAC-SHA256' ? 'HMAC-SHA256' : 'MD5');

export class WechatV2Client {
  private readonly options: { baseUrl: string; tlsCa?: string };
  constructor(options: { baseUrl: string; tlsCa?: string }) {
    this.options = options;
  }

  /** A signed call; the raw text (downloadbill answers CSV) and, when XML, its fields with the sign checked. */
  async post(account: PayAccount, path: string, fields: Fields, withCertificate = false): Promise<{ text: string; fields?: Fields }> {
    const type = signTypeOf(account);
    const body: Fields = { appid: account.appid, mch_id: account.partner, nonce_str: randomBytes(16).toString('hex'), ...(type === 'HMAC-SHA256' ? { sign_type: type } : {}), ...fields };
    if (account.subMchId) body.sub_mch_id = account.subMchId;
    body.sign = sign(body, account.secrets.partnerKey, type);
    const xml = toXml(body);
    const text = await this.postXml(account, path, xml, withCertificate);
    if (!text.trimStart().startsWith('<xml')) return { text };
    const answer = parseXml(text);
    // an answer with a sign must carry a valid one; a return_code FAIL carries none
    if (answer.sign !== undefined && !signatureValid(answer, account.secrets.partnerKey, type)) throw new WechatV2Error('WeChat Pay answer: bad signature');
    if (answer.return_code === 'SUCCESS' && answer.result_code !== undefined && answer.sign === undefined) throw new WechatV2Error('WeChat Pay answer: unsigned');
    return { text, fields: answer };
  }

  /** node:https rather than fetch: a call may carry the merchant's client certificate. */
  private postXml(account: PayAccount, path: string, xml: string, withCertificate: boolean): Promise<string> {
    let tls = {};
    if (withCertificate) {
      const cert = account.secrets.apiCert.trim();
      if (!cert) throw new GatewayNotSentError('apiCert', 'no merchant API certificate in the 支付配置');
      // loaded here first: one that does not load means the call never leaves (the caller may end what it was for)
      loadBeforeSending('apiCert', () => loadMerchantCertificate(cert, account.secrets.certPassword, account.partner));
      tls = merchantTlsOptions(cert, account.secrets.certPassword, account.partner);
    }
    const url = new URL(`${this.options.baseUrl}${path}`);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(url, { method: 'POST', headers: { 'content-type': 'text/xml; charset=utf-8' }, ...tls, ...(this.options.tlsCa ? { ca: this.options.tlsCa } : {}), timeout: 15_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new WechatV2Error(`WeChat Pay answered HTTP ${res.statusCode}`))));
      });
      req.on('timeout', () => req.destroy(new WechatV2Error('WeChat Pay did not answer in time')));
      req.on('error', reject);
      req.end(xml);
    });
  }
}
