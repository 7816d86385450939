import type { FastifyInstance } from 'fastify';
import {
  fill, idsRequest, labelOf, lockStatusOptions, messages, Perm, userChangeDeptRequest, userDeptSaveRequest,
  userDeptTreeParams, userIdParams, userIdRequest, userListQuery, userLockRequest, userNameParams, userSave, type User,
} from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { describeTarget } from '../../../http/audit.ts';
import { ok } from '../../../http/envelope.ts';
import { registerList } from '../../../http/list-routes.ts';
import { parse } from '../../../http/validate.ts';
import { sheetColumns } from '../../../http/xlsx.ts';
import { listUsers } from './queries.ts';
import {
  changeDept, deleteUsers, deptTree, forceOffline, lockUser, refreshAccessCache, resetPassword, saveUser, saveUserDepts, userDeptTree,
} from './service.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const m = messages.user;
const audit = (action: string) => ({ module: m.title, action });

// The sheet shows 正常 / 锁定 rather than N / Y.
type UserExportRow = Omit<User, 'isLock'> & { isLock: string };
const exportColumns = sheetColumns<UserExportRow>([m, messages.common], {
  userName: 18, userRealName: 18, userSex: 8, userMobile: 16, userEmail: 28, isLock: 8, deptName: 24, roleName: 18, editUser: 18, editTime: 20,
});

export function userRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    registerList(app, {
      permission: Perm.userList,
      query: userListQuery,
      list: '/api/User/list',
      doc: { tag: 'user', row: r.userRow },
      load: (request, query) => listUsers(ctx.db, callerOf(request).deptScope, query),
      export: {
        url: '/api/User/export', fileName: m.title, columns: exportColumns,
        row: (row): UserExportRow => ({ ...row, isLock: labelOf(lockStatusOptions, row.isLock) }),
      },
    });

    app.post('/api/User/save', { config: { access: { permission: Perm.userSave }, doc: { tag: 'user', body: userSave, answer: answers.data(r.userSaveAnswer) }, audit: audit(messages.common.actionSave) } }, async (request) => {
      const input = parse(userSave, request.body);
      describeTarget(request, input.userName);
      return ok(messages.common.dataSaved, await saveUser(ctx, callerOf(request), input));
    });

    app.delete('/api/User/delete', { config: { access: { permission: Perm.userDelete }, doc: { tag: 'user', query: idsRequest, answer: answers.message }, audit: audit(messages.common.actionDelete) } }, async (request) => {
      const { ids } = parse(idsRequest, request.query);
      describeTarget(request, `userId ${ids.join(',')}`);
      await deleteUsers(ctx, callerOf(request), ids);
      return ok(messages.common.dataDeleted);
    });

    app.get('/api/User/lock', { config: { access: { permission: Perm.userLock }, doc: { tag: 'user', query: userLockRequest, answer: answers.message }, audit: audit(m.actionLock) } }, async (request) => {
      const { userId, lock } = parse(userLockRequest, request.query);
      describeTarget(request, `userId ${userId} isLock ${lock}`);
      await lockUser(ctx, callerOf(request), userId, lock);
      return ok(m.lockChanged);
    });

    app.post('/api/User/pwd', { config: { access: { permission: Perm.userResetPwd }, doc: { tag: 'user', body: userIdRequest, answer: answers.data(r.userPasswordReset) }, audit: audit(m.actionResetPwd) } }, async (request) => {
      const { userId } = parse(userIdRequest, request.body);
      describeTarget(request, `userId ${userId}`);
      return ok(m.resetPwdOk, await resetPassword(ctx, callerOf(request), userId, request.sessionTokenHash));
    });

    app.post('/api/User/change/dept', { config: { access: { permission: Perm.userChangeDept }, doc: { tag: 'user', body: userChangeDeptRequest, answer: answers.message }, audit: audit(m.actionChangeDept) } }, async (request) => {
      const { userIds, deptId } = parse(userChangeDeptRequest, request.body);
      describeTarget(request, `userId ${userIds.join(',')} → deptId ${deptId}`);
      await changeDept(ctx, callerOf(request), userIds, deptId);
      return ok(m.changeDeptOk);
    });

    // The company choices of both the 数据权限 and the 部门设置 dialogs.
    app.get('/api/UserDept/deptTree/:parentId', { config: { access: { anyOf: [Perm.userDataScope, Perm.userChangeDept] }, doc: { tag: 'user', params: userDeptTreeParams, answer: answers.items(r.grantNode) } } }, async (request) => {
      const { parentId } = parse(userDeptTreeParams, request.params);
      return ok('', await deptTree(ctx, callerOf(request), parentId));
    });

    app.get('/api/UserDept/tree/:userId', { config: { access: { permission: Perm.userDataScope }, doc: { tag: 'user', params: userIdParams, answer: answers.items(r.grantNode) } } }, async (request) => {
      const { userId } = parse(userIdParams, request.params);
      return ok('', await userDeptTree(ctx, callerOf(request), userId));
    });

    app.post('/api/UserDept/save', { config: { access: { permission: Perm.userDataScope }, doc: { tag: 'user', body: userDeptSaveRequest, answer: answers.message }, audit: audit(m.actionDataScope) } }, async (request) => {
      const { userId, deptIds } = parse(userDeptSaveRequest, request.body);
      describeTarget(request, `userId ${userId} deptIds ${deptIds.join(',')}`);
      await saveUserDepts(ctx, callerOf(request), userId, deptIds);
      return ok(m.dataScopeSaved);
    });

    app.get('/api/User/expireToken/:userName', { config: { access: { permission: Perm.userExpireToken }, doc: { tag: 'user', params: userNameParams, answer: answers.message }, audit: audit(messages.common.actionForceOffline) } }, async (request) => {
      const { userName } = parse(userNameParams, request.params);
      describeTarget(request, userName);
      await forceOffline(ctx, callerOf(request), userName);
      return ok(fill(m.forceOfflineOk, { userName }));
    });

    app.get('/api/User/flashCache/:userName', { config: { access: { permission: Perm.userFlashCache }, doc: { tag: 'user', params: userNameParams, answer: answers.message }, audit: audit(messages.common.actionRefreshCache) } }, async (request) => {
      const { userName } = parse(userNameParams, request.params);
      describeTarget(request, userName);
      await refreshAccessCache(ctx, callerOf(request), userName);
      return ok(m.flashCacheOk);
    });
  };
}
