import { z } from 'zod';
import { LockStatus, LogResult } from '../enums.ts';
import { id, savedId, time } from './envelope.ts';

// The answers of the console's 系统管理 / 系统监控 routes and of signing in (auth, user, dept, role,
// permission, menu, monitor, variable): the one definition of each shape; the contract's type of the same
// name is its z.output (a type-only import, so the console loads no zod schema for it).

/** A node of the company and menu grant trees (UserDeptNode, RoleRightNode). */
export const grantNode = z.object({ id, pId: id, name: z.string(), open: z.boolean(), checked: z.boolean() });

// auth
export const loginAnswer = z.object({ token: z.string(), userId: id, code: z.union([z.literal(0), z.literal(1)]) });
export const menuNode = z.object({
  moduleId: id, parentId: id, moduleName: z.string(), moduleIcon: z.string(), moduleUrl: z.string(), moduleOrder: z.number().int(),
  get children() {
    return z.array(menuNode);
  },
});
export const currentUser = z.object({
  userId: id, userName: z.string(), userRealName: z.string(), code: z.union([z.literal(0), z.literal(1)]),
  roleId: id, roleName: z.string(), deptId: id.nullable(), deptName: z.string(),
  menus: z.array(menuNode), permissions: z.array(z.string()),
});
/**
 * - `lastLoginTime`: 'YYYY-MM-DD HH:mm:ss' (Asia/Shanghai), '' when there was none.
 */
export const userProfile = z.object({
  userId: id, userName: z.string(), userRealName: z.string(), userMobile: z.string(), userEmail: z.string(),
  deptName: z.string(), roleName: z.string(), lastLoginTime: time, lastLoginIp: z.string(),
});

// user
export const userRow = z.object({
  userId: id, userName: z.string(), userRealName: z.string(), userSex: z.string(), userMobile: z.string(), userEmail: z.string(),
  isLock: z.enum([LockStatus.normal, LockStatus.locked]), deptId: id.nullable(), deptName: z.string(),
  roleId: id, roleName: z.string(), systemNo: z.string(), addUser: z.string(), editUser: z.string(), addTime: time, editTime: time,
});
export const userSaveAnswer = z.object({ userId: id, initialPassword: z.string().optional() });
export const userPasswordReset = z.object({ userId: id, userName: z.string(), password: z.string() });
export const userDeptNode = grantNode;

// dept
export const deptRow = z.object({
  deptId: id, deptName: z.string(), deptNo: z.string(), parentId: id, addUser: z.string(), editUser: z.string(), addTime: time, editTime: time,
});
export const deptChoice = deptRow.pick({ deptId: true, deptName: true });

// role
/**
 * - `userCount`: Users holding the role, counted within the caller's data scope.
 */
export const roleRow = z.object({
  roleId: id, systemNo: z.string(), roleNo: z.string(), roleName: z.string(), isAdmin: z.boolean(), userCount: z.number().int(), addTime: time, editTime: time,
});
export const roleOption = z.object({ roleId: id, roleName: z.string() });
export const roleRightNode = grantNode;
/**
 * - `moduleId`: The screen's module.
 * - `isList`: The screen's 查询 code: held by whoever holds the screen.
 */
export const roleGrantAction = z.object({
  permissionId: id, permission: z.string(), permissionName: z.string(), moduleId: id, isList: z.boolean(), checked: z.boolean(),
});
export const roleGrantTree = z.object({ modules: z.array(roleRightNode), actions: z.array(roleGrantAction) });

// permission
/**
 * - `builtIn`: Declared by the server itself (permissionTable): may be renamed, never deleted or re-coded.
 * - `granted`: Only when the list was asked with a roleId.
 */
export const permissionRow = z.object({
  permissionId: id, permissionName: z.string(), permission: z.string(), builtIn: z.boolean(), granted: z.boolean().optional(),
});

/** The ids of the permissions a role holds (GET /api/RolePermission/list/{roleId}). */
export const permissionIds = z.array(id);

// menu
/**
 * - `isLeaf`: 1 for a screen, 0 for a group.
 * - `fullIndex`: The ids from the top down to this one, comma-separated.
 */
export const moduleRow = z.object({
  moduleId: id, parentId: id, moduleLevel: z.number().int(), systemNo: z.string(), isLeaf: z.number().int(), fullIndex: z.string(),
  moduleIcon: z.string(), moduleOrder: z.number().int(), moduleName: z.string(), moduleNotes: z.string(), moduleUrl: z.string(),
});
export const moduleTreeNode = moduleRow.extend({
  get children() {
    return z.array(moduleTreeNode);
  },
});

// monitor
const logResult = z.union([z.literal(LogResult.failure), z.literal(LogResult.success)]);
/**
 * - `client`: The browser and system of userAgent in short ('Chrome 120 / Windows 10').
 * - `sessionId`: The session's token hash: names the session, cannot be used as a token.
 * - `current`: The caller's own session (it cannot force itself offline).
 */
export const operLogRow = z.object({
  operId: id, userName: z.string(), module: z.string(), action: z.string(), target: z.string(), method: z.string(), url: z.string(),
  ip: z.string(), success: logResult, message: z.string(), costMs: z.number(), operTime: time,
});
export const loginLogRow = z.object({
  infoId: id, userName: z.string(), ip: z.string(), userAgent: z.string(), client: z.string(), success: logResult, message: z.string(), loginTime: time,
});
export const onlineSession = z.object({
  sessionId: z.string(), userId: id, userName: z.string(), userRealName: z.string(), deptName: z.string(), ip: z.string(),
  userAgent: z.string(), client: z.string(), loginTime: time, lastSeenAt: time, expiresAt: time, current: z.boolean(),
});

// variable
export const variableRow = z.object({
  varId: id, varLable: z.string(), varName: z.string(), varValue: z.string(), deptId: id.nullable(),
  addUser: z.string(), editUser: z.string(), addTime: time, editTime: time,
});

// health (GET /healthz, /livez)
const dependencyState = z.enum(['up', 'down']);
export const readiness = z.object({ database: dependencyState, redis: dependencyState.optional() });
export const liveness = z.object({ uptimeSeconds: z.number().int() });

export const systemSaved = {
  dept: savedId('deptId'), role: savedId('roleId'), permission: savedId('permissionId'),
  module: savedId('moduleId'), variable: savedId('varId'),
};
