import { fill, messages, type PayConfigCheckItem, type PayConfigCheckResult } from '@huiyun/contract';
import type { PayAccount } from '../gateway.ts';
import { privateKeyOf, publicKeyOf } from '../keys.ts';
import { failed, passed, probeOrderNo, probeResult, shownCode, unreadableKey } from '../probe.ts';

// 检测 of an Alipay config: alipay.trade.query for an order number that cannot exist. Alipay checks the APPID
// and the request's signature with the application public key it holds (isv.invalid-app-id,
// isv.invalid-signature), then answers ACQ.TRADE_NOT_EXIST — signed with Alipay's key, which alipay-sdk
// verifies with the config's 支付宝公钥 (validateSign, every answer, refusals too).

const m = messages.payConfigCheck;
const labels = messages.payConfig;

type Answer = { code?: unknown; sub_code?: unknown };
/** The gateway's signed call with the answer's signature verified (AlipayGateway.exec, the SDK's own timeout). */
export type AlipayQuery = (method: string, bizContent: Record<string, unknown>) => Promise<Answer>;

export async function probeAlipay(account: PayAccount, query: AlipayQuery): Promise<PayConfigCheckResult> {
  const unreadable = unreadableKey(m.checkRequest, labels.appPrivateKey, () => privateKeyOf(account.secrets.appPrivateKey))
    ?? unreadableKey(m.checkAnswer, labels.alipayPublicKey, () => publicKeyOf(account.alipayPublicKey));
  if (unreadable) return probeResult([unreadable]);
  try {
    const answer = await query('alipay.trade.query', { out_trade_no: probeOrderNo() });
    const request = requestCheck(answer);
    return probeResult(request.ok ? [request, passed(m.checkAnswer, m.alipayAnswerValid)] : [request]);
  } catch (error) {
    // alipay-sdk throws AlipayRequestError with the raw answer when its signature does not verify ("验签失败")
    const raw = (error as { responseDataRaw?: unknown }).responseDataRaw;
    const answer = typeof raw === 'string' && /验签失败/.test(String((error as Error).message)) ? answerOf(raw) : undefined;
    if (!answer) return probeResult([failed(m.checkRequest, m.unreachable)]);
    const request = requestCheck(answer);
    return probeResult(request.ok ? [request, failed(m.checkAnswer, m.alipayAnswerBadSign)] : [request]);
  }
}

function requestCheck(answer: Answer): PayConfigCheckItem {
  const sub = String(answer.sub_code ?? '');
  if (answer.code === '10000' || sub === 'ACQ.TRADE_NOT_EXIST') return passed(m.checkRequest, m.alipayRequestValid);
  if (sub === 'isv.invalid-signature') return failed(m.checkRequest, m.alipaySignError);
  if (sub === 'isv.invalid-app-id') return failed(m.checkRequest, m.alipayAppId);
  if (sub === 'isv.invalid-timestamp') return failed(m.checkRequest, m.alipayTimestamp);
  return failed(m.checkRequest, fill(m.refused, { code: shownCode(sub || answer.code) }));
}

/** The query's answer out of a raw body that failed verification ({"alipay_trade_query_response":{…},"sign":…}). */
function answerOf(raw: string): Answer | undefined {
  try {
    const body = JSON.parse(raw) as Record<string, Answer | undefined>;
    return body.alipay_trade_query_response ?? body.error_response;
  } catch {
    return undefined;
  }
}
