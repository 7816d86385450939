import { isIP } from 'node:net';
import { connect, createSecureContext, type ConnectionOptions } from 'node:tls';
import { fill, messages, type PayConfigCheckItem, type PayConfigCheckResult } from '@huiyun/contract';
import type { PayAccount } from '../gateway.ts';
import { failed, passed, PROBE_TIMEOUT_MS, probeOrderNo, probeResult, shownCode } from '../probe.ts';
import { merchantTlsOptions } from '../merchant-certificate.ts';
import { WechatV2Error, type WechatV2Client } from './client.ts';

// 检测 of a WeChat Pay APIv2 config: orderquery for an order number that cannot exist. WeChat checks the
// appid / mch_id pair and the request's sign (return_code FAIL 签名错误: the APIv2 key or the sign type is
// wrong), then answers result_code FAIL ORDERNOTEXIST signed with the APIv2 key (the client checks that sign).
// A stored API证书 (refunds) is opened locally with its password and used for a TLS handshake with the
// gateway's host: the handshake shows the certificate WeChat would be shown, whose CN is its 商户号.

const m = messages.payConfigCheck;

export async function probeWechatV2(client: WechatV2Client, account: PayAccount, target: { baseUrl: string; tlsCa?: string }): Promise<PayConfigCheckResult> {
  const request = await requestCheck(client, account);
  if (!request.ok || !account.secrets.apiCert.trim()) return probeResult([request]);
  return probeResult([request, await apiCertCheck(account, target)]);
}

async function requestCheck(client: WechatV2Client, account: PayAccount): Promise<PayConfigCheckItem> {
  let fields: Record<string, string> | undefined;
  try {
    ({ fields } = await client.post(account, '/pay/orderquery', { out_trade_no: probeOrderNo() }));
  } catch (error) {
    // the answer came back with a sign the APIv2 key does not make (WechatV2Client.post)
    if (error instanceof WechatV2Error && /signature|unsigned/.test(error.message)) return failed(m.checkRequest, m.v2AnswerBadSign);
    return failed(m.checkRequest, m.unreachable);
  }
  if (!fields) return failed(m.checkRequest, fill(m.refused, { code: 'not XML' }));
  if (fields.return_code !== 'SUCCESS') {
    const said = String(fields.return_msg ?? '');
    if (said.includes('签名')) return failed(m.checkRequest, m.v2SignError);
    if (/appid|mch_?id/i.test(said)) return failed(m.checkRequest, m.v2AppidMismatch);
    return failed(m.checkRequest, fill(m.refused, { code: shownCode(said || fields.return_code) }));
  }
  if (fields.result_code === 'SUCCESS' || fields.err_code === 'ORDERNOTEXIST') return passed(m.checkRequest, m.v2RequestValid);
  return failed(m.checkRequest, fill(m.refused, { code: shownCode(fields.err_code) }));
}

/** The API certificate as the refund calls present it (WechatV2Client.postXml). */
const tlsOptionsOf = (account: PayAccount) => merchantTlsOptions(account.secrets.apiCert, account.secrets.certPassword, account.partner);

type LocalCertificate = { subject?: { CN?: string | string[] }; valid_to?: string };

async function apiCertCheck(account: PayAccount, target: { baseUrl: string; tlsCa?: string }): Promise<PayConfigCheckItem> {
  const tls = tlsOptionsOf(account);
  try {
    createSecureContext(tls);
  } catch {
    return failed(m.checkApiCert, m.apiCertUnreadable);
  }
  const url = new URL(target.baseUrl);
  if (url.protocol !== 'https:') return passed(m.checkApiCert, m.apiCertOpenedOnly);
  let mine: LocalCertificate;
  try {
    mine = await handshake({ host: url.hostname, port: Number(url.port || 443), ...(isIP(url.hostname) ? {} : { servername: url.hostname }), ...tls, ...(target.tlsCa ? { ca: target.tlsCa } : {}) });
  } catch (error) {
    const network = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH'].includes(String((error as { code?: unknown }).code));
    return failed(m.checkApiCert, network ? m.unreachable : m.apiCertHandshake);
  }
  const owner = [mine.subject?.CN].flat()[0] ?? '';
  if (owner && owner !== account.partner) return failed(m.checkApiCert, fill(m.apiCertOtherMerchant, { owner, partner: account.partner }));
  const until = Date.parse(mine.valid_to ?? '');
  if (until < Date.now()) return failed(m.checkApiCert, fill(m.apiCertExpired, { date: new Date(until).toISOString().slice(0, 10) }));
  return passed(m.checkApiCert, fill(m.apiCertValid, { partner: account.partner }));
}

/** A TLS handshake presenting the certificate; answers the certificate presented (its subject, its end). */
function handshake(options: ConnectionOptions): Promise<LocalCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ ...options, timeout: PROBE_TIMEOUT_MS }, () => {
      const mine = socket.getCertificate() as LocalCertificate | null;
      socket.end();
      resolve(mine ?? {});
    });
    socket.on('timeout', () => socket.destroy(Object.assign(new Error('TLS handshake timed out'), { code: 'ETIMEDOUT' })));
    socket.on('error', reject);
  });
}
