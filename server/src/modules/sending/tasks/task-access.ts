import { type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { messages } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import type { Database } from '../../../db/schema.ts';
import { deptInScope, inDeptScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';
import { notFound } from '../../../http/errors.ts';

// Who sees which task (PRODUCT §3): an administrator the tasks of the companies in its scope (the
// super administrator all), anyone else only the tasks it created. Every task call goes through here.

/** A condition on sync_task selecting the tasks the caller may see. */
export function visibleTasks(caller: Access) {
  return (eb: ExpressionBuilder<Database, 'sync_task'>): Expression<SqlBool> => {
    if (caller.isAdmin) return inDeptScope('sync_task.deptId', caller.deptScope);
    return eb('sync_task.userId', '=', caller.userId);
  };
}

export function canSeeTask(caller: Access, task: { userId: number; deptId: number | null }): boolean {
  return caller.isAdmin ? deptInScope(caller.deptScope, task.deptId) : task.userId === caller.userId;
}

/**
 * The task, or a refusal that reveals nothing about tasks the caller may not see: another company's
 * task answers exactly like a missing one (404), so ids cannot be probed for existence.
 */
export async function loadVisibleTask(ctx: AppContext, caller: Access, taskId: number) {
  const task = await ctx.db.selectFrom('sync_task').selectAll().where('taskId', '=', taskId).executeTakeFirst();
  if (!task || !canSeeTask(caller, task)) throw notFound(messages.common.notFoundRecord);
  return task;
}


