import type { KeyObject } from 'node:crypto';
import { fill, messages, type PayConfigCheckItem, type PayConfigCheckResult } from '@huiyun/contract';
import { GatewayVerifyError, type PayAccount } from '../gateway.ts';
import { privateKeyOf, publicKeyOf } from '../keys.ts';
import { failed, passed, probeOrderNo, probeResult, shownCode, unreadableKey } from '../probe.ts';
import { SIGNTEST_PREFIX, verifySigned } from './crypto.ts';
import type { WechatV3Client } from './client.ts';

// 检测 of a WeChat Pay APIv3 config: GET the transaction of an order number that cannot exist. WeChat checks
// the request's signature first (401 SIGN_ERROR: the merchant private key does not match the certificate
// serial, or the serial is not the merchant's), then the merchant number, and answers 404 ORDER_NOT_EXIST —
// signed, as every answer to a request it authenticated, with the platform key: verifying that signature with
// the config's 平台公钥 (or the platform certificates, opened with the APIv3 key) proves those too.
// The AppID takes no part in a query: it is proved by the first sale.

const m = messages.payConfigCheck;
const labels = messages.payConfig;
const header = (headers: Record<string, string>, name: string) => headers[name] ?? '';

export async function probeWechatV3(client: WechatV3Client, account: PayAccount, now: () => number): Promise<PayConfigCheckResult> {
  const unreadable = unreadableKey(m.checkRequest, labels.rsaKey, () => privateKeyOf(account.secrets.rsaKey));
  if (unreadable) return probeResult([unreadable]);

  let answer: Awaited<ReturnType<WechatV3Client['send']>>;
  try {
    answer = await client.send(account, 'GET', `/v3/pay/transactions/out-trade-no/${probeOrderNo()}?mchid=${encodeURIComponent(account.partner)}`);
  } catch {
    return probeResult([failed(m.checkRequest, m.unreachable)]);
  }
  const request = requestCheck(answer.status, answer.text);
  if (!request.ok) return probeResult([request]);

  const keys = await platformKeys(client, account);
  if ('failure' in keys) return probeResult([request, keys.failure]);
  return probeResult([request, ...keys.checks, answerCheck(answer.headers, answer.text, keys.keys, now())]);
}

function requestCheck(status: number, text: string): PayConfigCheckItem {
  let code = '';
  try {
    code = String((JSON.parse(text) as { code?: unknown }).code ?? '');
  } catch {
    // an answer that is not JSON: judged by its status alone
  }
  if (status === 401 || code === 'SIGN_ERROR') return failed(m.checkRequest, m.v3SignError);
  if (code === 'MCH_NOT_EXISTS') return failed(m.checkRequest, m.v3MchNotExists);
  if (status < 300 || code === 'ORDER_NOT_EXIST') return passed(m.checkRequest, m.v3RequestValid);
  return failed(m.checkRequest, fill(m.refused, { code: shownCode(code || `HTTP ${status}`) }));
}

/** The platform keys the answer is verified with: the config's 平台公钥, or the platform certificates downloaded and opened with the APIv3 key. */
async function platformKeys(client: WechatV3Client, account: PayAccount): Promise<{ keys: Map<string, KeyObject>; checks: PayConfigCheckItem[] } | { failure: PayConfigCheckItem }> {
  if (account.platformPubKeyId && account.platformPubKey) {
    try {
      return { keys: new Map([[account.platformPubKeyId, publicKeyOf(account.platformPubKey)]]), checks: [] };
    } catch {
      return { failure: failed(m.checkAnswer, fill(m.keyUnreadable, { label: labels.platformPubKey })) };
    }
  }
  try {
    // fetched again: a cached set may be of the APIv3 key this config had before
    const keys = await client.keysFor(account, true);
    return { keys, checks: [passed(m.checkAnswer, m.v3CertificatesValid)] };
  } catch (error) {
    return { failure: failed(m.checkAnswer, error instanceof GatewayVerifyError ? m.v3ApiV3Key : m.unreachable) };
  }
}

function answerCheck(headers: Record<string, string>, text: string, keys: Map<string, KeyObject>, now: number): PayConfigCheckItem {
  const signature = header(headers, 'wechatpay-signature');
  if (!signature) return failed(m.checkAnswer, m.v3AnswerUnsigned);
  // WeChat now and then signs an answer wrongly on purpose to see that merchants verify: not the config's fault
  if (signature.startsWith(SIGNTEST_PREFIX)) return failed(m.checkAnswer, m.v3SignTest);
  if (!keys.has(header(headers, 'wechatpay-serial'))) return failed(m.checkAnswer, m.v3UnknownSerial);
  try {
    verifySigned(headers, text, (serial) => keys.get(serial), now);
    return passed(m.checkAnswer, m.v3AnswerValid);
  } catch {
    return failed(m.checkAnswer, m.v3AnswerBadSign);
  }
}
