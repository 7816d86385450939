import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Selectable } from 'kysely';
import { fenToYuan, isOrderNo, messages } from '@huiyun/contract';
import type { Database } from '../../../../db/schema.ts';
import { answers } from '../../../../http/route-doc.ts';

const t = messages.terminal;

export const SIM_PAGE_PATH = '/gateway/simulator/pay/';

/** The payment the page shows. */
export type PageView = Selectable<Database['pay_sim_payment']> & { expired: boolean };
export type PayOutcome = 'paid' | 'alreadyPaid' | 'closed' | 'expired' | 'missing';
/** What the page asks of the simulated platform (platform.ts). */
type PaymentPage = {
  pageView(orderNo: string, token: string): Promise<PageView | undefined>;
  payOnPage(orderNo: string, token: string): Promise<{ outcome: PayOutcome; view?: PageView }>;
};

// The simulated platform's 支付模拟 page (public: its token is the proof), registered by the platform's plugin
// (platform-service.ts).
export function simulatorPageRoutes(app: FastifyInstance, simulator: PaymentPage): void {
  // shown = the payment as pay() read it (the page after 支付成功 shows the same amount and goods)
  // payState: the payment's state after a press (data-pay-state, the contract with docs/terminal-protocol.md §8)
  const page = async (orderNo: string, token: string, notice?: string, shown?: PageView, payState?: PayState) => {
    const view = shown ?? (await simulator.pageView(orderNo, token));
    if (!view) return missingPage;
    const state = view.status === 'paid' ? t.simAlreadyPaid : view.status === 'closed' ? t.simClosed : view.expired ? t.simExpired : '';
    const form = state || notice ? '' : `<form method="post"><input type="hidden" name="t" value="${esc(token)}">
      <button name="action" value="pay" class="pay">${esc(t.simPay)}</button><button name="action" value="cancel" class="cancel">${esc(t.simCancel)}</button></form>`;
    return simPage(t.simTitle, `<div class="amount">¥ ${fenToYuan(view.amount)}</div>
      <dl><dt>${esc(t.simGoods)}</dt><dd>${esc(view.subject)}</dd><dt>${esc(t.simOrderNo)}</dt><dd>${esc(orderNo)}</dd></dl>
      ${notice || state ? `<p class="state">${esc(notice ?? state)}</p>` : ''}${form}<p class="note">${esc(t.simNote)}</p>`,
    payState ?? (view.status === 'paid' ? 'paid' : view.status === 'closed' || view.expired ? 'closed' : 'open'));
  };
  const html = (reply: FastifyReply, body: string) => reply.code(body === missingPage ? 404 : 200).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
  // an order number is checked for its shape before any query (PostgreSQL cannot even compare one holding U+0000)
  app.get(`${SIM_PAGE_PATH}:orderNo`, { config: { access: 'public', doc: { tag: 'gateway', note: '模拟支付网关的付款页（HTML），仅用于演示与测试', answer: answers.html } } }, async (request, reply) => {
    const { orderNo } = request.params as { orderNo: string };
    const { t: token = '' } = request.query as { t?: string };
    return html(reply, isOrderNo(orderNo) ? await page(orderNo, String(token)) : missingPage);
  });
  app.post(`${SIM_PAGE_PATH}:orderNo`, { config: { access: 'public', doc: { tag: 'gateway', note: '模拟支付网关付款页的表单提交（HTML 表单）', answer: answers.html } } }, async (request, reply) => {
    const { orderNo } = request.params as { orderNo: string };
    if (!isOrderNo(orderNo)) return html(reply, missingPage);
    const body = (request.body ?? {}) as { t?: string; action?: string };
    const token = String(body.t ?? '');
    let notice: string | undefined;
    let shown: PageView | undefined;
    let payState: PayState | undefined;
    if (body.action === 'pay') {
      const paid = await simulator.payOnPage(orderNo, token);
      notice = { paid: t.simPaid, alreadyPaid: t.simAlreadyPaid, closed: t.simClosed, expired: t.simExpired, missing: t.simMissing }[paid.outcome];
      payState = ({ paid: 'paid', alreadyPaid: 'paid', closed: 'closed', expired: 'closed', missing: 'missing' } as const)[paid.outcome];
      shown = paid.view;
    } else notice = t.simCancelled;
    return html(reply, await page(orderNo, token, notice, shown, payState));
  });
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
type PayState = 'open' | 'paid' | 'closed' | 'missing';

function simPage(title: string, content: string, payState: PayState): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>
body{margin:0;font-family:-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f5f5f5;color:#222}
main{max-width:420px;margin:0 auto;padding:24px 16px}h1{font-size:18px;text-align:center;margin:8px 0 20px}
.card{background:#fff;border-radius:12px;padding:20px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
.amount{font-size:36px;font-weight:600;text-align:center;margin:8px 0 16px}dl{margin:0 0 16px;font-size:14px}
dt{color:#888;float:left;clear:left;width:5em}dd{margin:0 0 8px 5em;word-break:break-all}
button{display:block;width:100%;font-size:17px;padding:14px;border-radius:8px;border:0;margin-top:12px}
.pay{background:#07c160;color:#fff}.cancel{background:#eee;color:#333}.state{text-align:center;font-size:16px;color:#1677ff}
.note{text-align:center;color:#999;font-size:12px;margin-top:20px}</style></head>
<body data-pay-state="${payState}"><main><h1>${esc(title)}</h1><div class="card">${content}</div></main></body></html>`;
}

/** The page of a payment that is not there (or whose token does not fit): answered 404. */
const missingPage = simPage(t.simTitle, `<p class="note">${esc(t.simMissing)}</p>`, 'missing');
