import {
  fill, gatewayFields, messages, missingGatewayField, payConfigSecretFields, payConfigTextFields, payGatewayOptions, SECRET_MASK,
  type PayConfigField, type PayConfigSave, type PayConfigSecretField, type PayConfigTextField,
} from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { dialectOf } from '../../../db/dialect.ts';
import type { Queryable } from '../../../db/schema.ts';
import { assertDeptInScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError, notFound } from '../../../http/errors.ts';
import { payAccountsChanged, maskStored, payConfigPurpose } from '../gateways/index.ts';
import { payConfigKeyProblem } from './key-checks.ts';

const m = messages.payConfig;

/**
 * Adds or edits a config. A secret sent empty or as the mask of the stored one keeps the stored
 * secret; one named in clearSecrets (and not sent anew) is cleared; fields the gateway does not ask
 * for are emptied. The company is set when adding (the caller's own unless it names one of its scope).
 */
export async function savePayConfig(ctx: AppContext, caller: Access, input: PayConfigSave): Promise<number> {
  const gateway = payGatewayOptions.find((g) => g.value === input.gateway)!;
  if (!gateway.payTypes.includes(input.payType)) throw new AppError(fill(m.gatewayPayType, { gateway: gateway.label }));
  const now = ctx.now();
  const id = await ctx.db.transaction().execute(async (trx) => {
    // Locked (PostgreSQL): a binding saved meanwhile waits, so the pay-type check below holds.
    const stored = input.id === undefined ? undefined : await trx
      .selectFrom('pay_config')
      .selectAll()
      .where('id', '=', input.id)
      .$if(dialectOf(trx) === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst();
    if (input.id !== undefined && !stored) throw notFound();
    if (stored) assertDeptInScope(caller.deptScope, stored.deptId);
    // its terminals, orders and keys belong to that company: another company gets a config of its own
    if (stored && input.deptId !== undefined && input.deptId !== stored.deptId) throw new AppError(m.deptFixed);

    const deptId = stored?.deptId ?? input.deptId ?? caller.deptId;
    if (deptId == null) throw new AppError(m.deptRequired);
    if (!stored) {
      assertDeptInScope(caller.deptScope, deptId);
      const dept = await trx.selectFrom('sys_dept').select('deptId').where('deptId', '=', deptId).executeTakeFirst();
      if (!dept) throw new AppError(m.deptRequired);
    }

    const shown = new Set<string>(gatewayFields[input.gateway].shown);
    const texts = Object.fromEntries(payConfigTextFields.map((f) => [f, shown.has(f) ? input[f] : ''])) as Record<PayConfigTextField, string>;
    const secrets = {} as Record<PayConfigSecretField, string>;
    // the secrets sent anew, as typed (the key checks below read them; kept ones are opened only when a check needs one)
    const fresh = new Map<PayConfigField, string>();
    for (const field of payConfigSecretFields) {
      const old = stored?.[field] ?? '';
      const sent = input[field];
      const keeps = sent === '' || (old !== '' && sent === maskStored(ctx, field, old));
      if (!shown.has(field)) secrets[field] = '';
      else if (keeps) secrets[field] = input.clearSecrets.includes(field) ? '' : old;
      else if (sent.includes(SECRET_MASK)) throw new AppError(fill(m.secretMasked, { label: m[field] }));
      else {
        secrets[field] = ctx.secrets.seal(payConfigPurpose(field), sent);
        fresh.set(field, sent);
      }
    }
    const missing = missingGatewayField({ gateway: input.gateway, ...texts }, (field) => secrets[field] !== '');
    if (missing) throw new AppError(missing);
    const keyProblem = payConfigKeyProblem(input.gateway, {
      valueOf: (field) => (isSecretField(field) ? (fresh.get(field) ?? openedOr(ctx, field, secrets[field])) : texts[field]),
      // a config new to this gateway has every key checked; else only what the save changes
      changed: (field) => !stored || stored.gateway !== input.gateway || (isSecretField(field) ? fresh.has(field) || secrets[field] !== stored[field] : texts[field] !== String(stored[field] ?? '')),
    });
    if (keyProblem) throw new AppError(keyProblem);

    if (stored && stored.payType !== input.payType) {
      const bound = await trx.selectFrom('pay_terminal_config').select('tcId').where('configId', '=', stored.id).executeTakeFirst();
      if (bound) throw new AppError(m.payTypeChangeBound);
    }

    // its orders' refunds and queries go to the gateway they were paid through
    if (stored && stored.gateway !== input.gateway && (await orderOf(trx, stored.id))) throw new AppError(fill(m.gatewayChangeUsed, { name: stored.name }));

    const fields = { name: input.name, payType: input.payType, gateway: input.gateway, ...texts, ...secrets, editUser: caller.userName, editTime: now };
    if (!stored) {
      const row = await trx
        .insertInto('pay_config')
        .values({ ...fields, deptId, addUser: caller.userName, addTime: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    }
    await trx.updateTable('pay_config').set(fields).where('id', '=', stored.id).execute();
    return stored.id;
  });
  // committed: no instance uses the secrets it replaced (a new config has no entry yet; dropped all the same)
  await payAccountsChanged(ctx, [id]);
  return id;
}

const isSecretField = (field: PayConfigField): field is PayConfigSecretField => (payConfigSecretFields as readonly string[]).includes(field);

/** A stored secret opened; '' when none is stored or it does not open under the key ring (nothing to check then). */
function openedOr(ctx: AppContext, field: PayConfigSecretField, sealed: string): string {
  if (!sealed) return '';
  try {
    return ctx.secrets.open(payConfigPurpose(field), sealed);
  } catch {
    return '';
  }
}

/**
 * An order paid (or to be paid) with one of the configs, if any. Rare admin actions: the check reads pay_order
 * without an index of its own (an extra index would cost every order insert).
 */
async function orderOf(db: Queryable, configIds: number | number[]) {
  return db.selectFrom('pay_order').select('configId').where('configId', 'in', [configIds].flat()).limit(1).executeTakeFirst();
}

/**
 * All or none: an id that does not exist or lies outside the caller's companies refuses the whole
 * request; so does a config a 终端支付配置 still uses (its name and how many in the message).
 */
export async function deletePayConfigs(ctx: AppContext, caller: Access, ids: number[]): Promise<number> {
  const unique = [...new Set(ids)];
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    // Locked (PostgreSQL) before the bound check: a binding being saved finishes first and is seen, or waits and finds no config.
    const rows = await trx
      .selectFrom('pay_config')
      .select(['id', 'name', 'deptId'])
      .where('id', 'in', unique)
      .orderBy('id')
      .$if(dialectOf(trx) === 'postgres', (qb) => qb.forUpdate())
      .execute();
    if (rows.length !== unique.length) throw notFound();
    for (const row of rows) assertDeptInScope(caller.deptScope, row.deptId);
    const bound = await trx
      .selectFrom('pay_terminal_config')
      .select(['configId', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('configId', 'in', unique)
      .groupBy('configId')
      .executeTakeFirst();
    if (bound) {
      const name = rows.find((r) => r.id === bound.configId)?.name ?? '';
      throw new AppError(fill(m.boundByTerminal, { name, count: Number(bound.n) }));
    }
    // Orders keep their config: refunds and gateway queries need its keys.
    const used = await orderOf(trx, unique);
    if (used) throw new AppError(fill(m.usedByOrders, { name: rows.find((r) => r.id === used.configId)?.name ?? '' }));
    await trx.deleteFrom('pay_config').where('id', 'in', unique).execute();
    return unique.length;
  });
  await payAccountsChanged(ctx, unique);
  return deleted;
}
