import type { z } from 'zod';
import { answerEnvelope, answerFailure } from './envelope.ts';
import * as figures from './figures.ts';
import * as pay from './pay.ts';
import * as sync from './sync.ts';
import * as system from './system.ts';

// What each API route answers, as zod schemas (@huiyun/contract/responses): the server's OpenAPI
// document (modules/platform/api-docs) is generated from them, and its tests parse real answers with them. The
// contract's entity types are their z.output, imported type-only: the console loads none of these and
// no screen's bundle grows.

export * from './envelope.ts';
export * from './figures.ts';
export * from './pay.ts';
export * from './sync.ts';
export * from './system.ts';

/**
 * Each schema by its name in the document (components.schemas): the contract type's name. A route's
 * answer schema must be one of these (api-docs fails on one that is not), so every shape has one name.
 */
export const answerSchemas: Record<string, z.ZodType> = {
  Envelope: answerEnvelope,
  Failure: answerFailure,
  // auth, system
  LoginAnswer: system.loginAnswer,
  MenuNode: system.menuNode,
  CurrentUser: system.currentUser,
  UserProfile: system.userProfile,
  User: system.userRow,
  UserSaveAnswer: system.userSaveAnswer,
  UserPasswordReset: system.userPasswordReset,
  GrantNode: system.grantNode,
  Dept: system.deptRow,
  DeptChoice: system.deptChoice,
  DeptSaved: system.systemSaved.dept,
  Role: system.roleRow,
  RoleSaved: system.systemSaved.role,
  RoleOption: system.roleOption,
  RoleGrantAction: system.roleGrantAction,
  RoleGrantTree: system.roleGrantTree,
  Permission: system.permissionRow,
  PermissionIds: system.permissionIds,
  PermissionSaved: system.systemSaved.permission,
  Module: system.moduleRow,
  ModuleTreeNode: system.moduleTreeNode,
  ModuleSaved: system.systemSaved.module,
  OperLog: system.operLogRow,
  LoginLog: system.loginLogRow,
  OnlineSession: system.onlineSession,
  Variable: system.variableRow,
  Readiness: system.readiness,
  Liveness: system.liveness,
  VariableSaved: system.systemSaved.variable,
  // 短信任务, device protocol
  AuthCode: sync.authCodeRow,
  AuthCodeSaved: sync.syncSaved.authCode,
  TaskUserChoice: sync.taskUserChoice,
  UserDevice: sync.userDevice,
  Task: sync.taskRow,
  TaskSaved: sync.syncSaved.task,
  QrImagePath: sync.qrImagePath,
  StatisticsTotals: sync.statisticsTotals,
  TaskUserStatistics: sync.taskUserStatisticsRow,
  TaskUserSaved: sync.syncSaved.taskUser,
  UploadResultItem: sync.uploadResultItem,
  InvalidLine: sync.invalidLine,
  UploadTaskDataResult: sync.uploadTaskDataResult,
  BlacklistEntry: sync.blacklistRow,
  BlacklistAddResult: sync.blacklistAddResult,
  BlacklistDeleted: sync.blacklistDeleted,
  DeviceActivation: sync.deviceActivation,
  DeviceBatchItem: sync.deviceBatchItem,
  DeviceBatch: sync.deviceBatch,
  DevicePull: sync.devicePull,
  DeviceReportResult: sync.deviceReportResult,
  DeviceHeartbeatAnswer: sync.deviceHeartbeatAnswer,
  DeviceDeliveryResult: sync.deviceDeliveryResult,
  DeviceRow: sync.deviceRow,
  DeviceRepliesResult: sync.deviceRepliesResult,
  ReplyRow: sync.replyRow,
  // 售货机 / 支付, terminal protocol
  Machine: pay.machineRow,
  MachineOption: pay.machineOption,
  MachineKeyAnswer: pay.machineKeyAnswer,
  MachineSaved: pay.machineSaved,
  Aisle: pay.aisleRow,
  AisleGrid: pay.aisleGrid,
  AisleSaved: pay.aisleSaved,
  AisleGridCreated: pay.aisleGridCreated,
  AislesRestocked: pay.aislesRestocked,
  TerminalConfig: pay.terminalConfigRow,
  TerminalConfigSaved: pay.paySaved.terminalConfig,
  TerminalMachineChoice: pay.terminalMachineChoice,
  TerminalPayConfigChoice: pay.terminalPayConfigChoice,
  PayConfig: pay.payConfigRow,
  PayConfigSaved: pay.paySaved.payConfig,
  PayConfigCheckResult: pay.payConfigCheckAnswer,
  Order: pay.orderRow,
  OrderDetail: pay.orderDetail,
  OrderRefundResult: pay.orderRefundResult,
  PayAlarm: pay.payAlarmRow,
  ReconcileRun: pay.reconcileRunRow,
  ReconcileDiff: pay.reconcileDiffRow,
  ReconcileConfigChoice: pay.reconcileConfigChoice,
  ReconcileRunAnswer: pay.reconcileRunAnswer,
  TerminalOrderCreated: pay.terminalOrderCreated,
  TerminalOrderStatus: pay.terminalOrderStatus,
  TerminalHeartbeatAnswer: pay.terminalHeartbeatAnswer,
  // 数据可视化, 监控查询
  SalesPoint: figures.salesPoint,
  SalesCard: figures.salesCard,
  SalesRank: figures.salesRank,
  PayShare: figures.payShare,
  SalesCharts: figures.salesCharts,
  SalesChartsOptions: figures.salesChartsOptions,
  RouteStats: figures.routeStats,
  SystemSnapshot: figures.systemSnapshot,
};

/** true when A and B are the same shape; otherwise a type naming both, so `true satisfies SameShape<A, B>` fails typecheck. */
export type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : { differs: [A, B] }) : { differs: [A, B] };

// The answers the console reads that have no entity type of their own (type-only for the console: erased, no zod loaded).
export type MachineSaved = z.output<typeof pay.machineSaved>;
export type BlacklistDeleted = z.output<typeof sync.blacklistDeleted>;
export type DeviceHeartbeatAnswer = z.output<typeof sync.deviceHeartbeatAnswer>;
export type TerminalHeartbeatAnswer = z.output<typeof pay.terminalHeartbeatAnswer>;
