import type { FastifyInstance } from 'fastify';
import { messages, payConfigCheckRequest, Perm, type PayConfigCheckResult } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { assertDeptInScope } from '../../../db/scope.ts';
import { callerOf } from '../../../http/access-check.ts';
import { describeTarget } from '../../../http/audit.ts';
import type { Access } from '../../../http/caller.ts';
import { ok } from '../../../http/envelope.ts';
import { notFound } from '../../../http/errors.ts';
import { parse } from '../../../http/validate.ts';
import { loadPayAccount, PayAccountError, type GatewayRegistry, type PayAccount, failed, probeResult } from '../gateways/index.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const m = messages.payConfigCheck;

/**
 * 支付配置 → 检测: the saved config (its secrets opened here, read afresh rather than from the payment cache) asks
 * its gateway for one harmless signed call (PaymentGateway.probe). A config outside the caller's companies is
 * refused as the list hides it; what the gateway answered, valid or not, is the answer (200), for the screen to show.
 */
export async function checkPayConfig(ctx: AppContext, gateways: GatewayRegistry, caller: Access, id: number): Promise<{ name: string; result: PayConfigCheckResult }> {
  const row = await ctx.db.selectFrom('pay_config').select(['id', 'name', 'deptId', 'gateway']).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  assertDeptInScope(caller.deptScope, row.deptId);
  const gateway = gateways.get(row.gateway);
  if (!gateway?.probe) return { name: row.name, result: probeResult([failed(m.action, m.unsupported)]) };
  let account: PayAccount | undefined;
  try {
    account = await loadPayAccount(ctx.db, ctx.secrets, id);
  } catch (error) {
    if (error instanceof PayAccountError) return { name: row.name, result: probeResult([failed(m.action, m.secretsUnreadable)]) };
    throw error;
  }
  if (!account) throw notFound(); // deleted meanwhile
  return { name: row.name, result: await gateway.probe(account) };
}

/** POST /api/Config/check { id }: operation-logged with the config it checked and the sentence it answered (never a key). */
export function registerPayConfigCheck(app: FastifyInstance, ctx: AppContext, gateways: GatewayRegistry): void {
  app.post('/api/Config/check', { config: { access: { permission: Perm.payConfigCheck }, doc: { tag: 'pay-config', body: payConfigCheckRequest, answer: answers.data(r.payConfigCheckAnswer) }, audit: { module: messages.payConfig.title, action: m.action } } }, async (request) => {
    const { id } = parse(payConfigCheckRequest, request.body);
    describeTarget(request, `id ${id}`);
    const { name, result } = await checkPayConfig(ctx, gateways, callerOf(request), id);
    describeTarget(request, `id ${id} ${name}`);
    return ok(result.message, result);
  });
}
