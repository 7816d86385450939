import { BlacklistSource, fill, messages, type BlacklistAdd, type BlacklistAddResult, type BlacklistDelete, type BlacklistUpload } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { assertDeptInScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError, notFound } from '../../../http/errors.ts';
import { parseNumberFile, scanNumberText, type NumberFileSummary, openOwnNumberFile } from '../number-files/index.ts';
import { findDept } from './queries.ts';
import { writeBlacklist } from './write-numbers.ts';

const m = messages.blacklist;
/** Invalid tokens an add names in its refusal. */
const NAMED_INVALID = 5;

/**
 * The company a change acts on: the caller's own, or one it names, which must lie in its data scope
 * (for an ordinary account that is its own company only). Refused, changing nothing, otherwise.
 */
export async function targetDept(ctx: AppContext, caller: Access, deptId: number | undefined) {
  const chosen = deptId ?? caller.deptId;
  if (chosen == null) throw new AppError(m.deptRequired);
  assertDeptInScope(caller.deptScope, chosen);
  const dept = await findDept(ctx.db, chosen);
  if (!dept) throw notFound(m.deptNotFound);
  return dept;
}

/** Repeats in the input plus numbers the list already held. */
const duplicatesOf = (summary: NumberFileSummary, added: number) => summary.duplicatesInFile + summary.valid - added;

/**
 * 新增: numbers typed into the form. Any token that is not a mobile number refuses the whole add
 * (the operator sees which and corrects it); numbers already listed are counted, not refused.
 */
export async function addToBlacklist(ctx: AppContext, caller: Access, input: BlacklistAdd) {
  const dept = await targetDept(ctx, caller, input.deptId);
  const numbers: number[] = [];
  const summary = scanNumberText(input.phones, (batch) => numbers.push(...batch.numbers), { maxInvalidSamples: NAMED_INVALID });
  if (summary.invalid > 0) {
    const named = summary.invalidSamples.map((s) => s.text).join('、');
    const listed = summary.invalid > summary.invalidSamples.length ? fill(m.phonesInvalidMore, { numbers: named, count: summary.invalid }) : named;
    throw new AppError(fill(m.phonesInvalid, { numbers: listed }));
  }
  if (summary.valid === 0) throw new AppError(m.phonesRequired);
  const added = await writeBlacklist(ctx, { deptId: dept.deptId, addUser: caller.userName, source: BlacklistSource.manual }, (write) => write(numbers));
  const result: BlacklistAddResult = { added, duplicates: duplicatesOf(summary, added), invalid: 0, invalidSamples: [] };
  return { dept, result };
}

/** 上传号码: a stored .txt file of the caller's; invalid lines are counted and sampled, not refused. */
export async function uploadToBlacklist(ctx: AppContext, caller: Access, input: BlacklistUpload) {
  const dept = await targetDept(ctx, caller, input.deptId);
  const file = await openOwnNumberFile(ctx, caller, input.fileNo);
  let summary: NumberFileSummary | undefined;
  const added = await writeBlacklist(ctx, { deptId: dept.deptId, addUser: caller.userName, source: BlacklistSource.upload }, async (write) => {
    summary = await parseNumberFile(file, (batch) => write(batch.numbers));
  });
  const { invalid, invalidSamples } = summary!;
  const result: BlacklistAddResult = { added, duplicates: duplicatesOf(summary!, added), invalid, invalidSamples };
  return { dept, result };
}

/** 删除: entries of companies in the caller's scope (all checked before anything is deleted); answers how many went. */
export async function deleteFromBlacklist(ctx: AppContext, caller: Access, input: BlacklistDelete): Promise<number> {
  const byDept = new Map<number, number[]>();
  for (const { deptId, phone } of input.ids) {
    const phones = byDept.get(deptId) ?? [];
    phones.push(phone);
    byDept.set(deptId, phones);
  }
  for (const deptId of byDept.keys()) assertDeptInScope(caller.deptScope, deptId);
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    let count = 0;
    for (const [deptId, phones] of byDept) {
      const result = await trx.deleteFrom('sync_blacklist').where('deptId', '=', deptId).where('phone', 'in', phones).executeTakeFirst();
      count += Number(result.numDeletedRows);
    }
    return count;
  });
  if (deleted === 0) throw notFound();
  return deleted;
}
