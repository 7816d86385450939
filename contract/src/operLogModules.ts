import { aisle, authcode, blacklist, dept, machine, menu, monitor as m, order, payConfig, permission, reconcile, role, statistics, task, terminalConfig, upload, user, variable } from './messages.ts';
import type { Option } from './enums.ts';

/**
 * The modules an operation-log entry names: the `audit.module` of every changing route (a server test
 * fails when a route names one that is not here). 操作日志 offers them as its 模块 choices and filters
 * on the module by equality — one of a known set of screens, picked, not typed — read off the index
 * (module, operTime, operId).
 */
export const operLogModules = [
  user.title, role.title, dept.title, menu.title, permission.title, variable.title, m.onlineTitle,
  task.title, upload.title, authcode.title, statistics.title, blacklist.title,
  payConfig.title, terminalConfig.title, machine.title, aisle.title, order.title, reconcile.title,
] as const;
export const operLogModuleOptions: Option<string>[] = operLogModules.map((module) => ({ value: module, label: module }));
