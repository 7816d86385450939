import type { z } from 'zod';
import type { CurrentUser, LoginAnswer, MenuNode, UserProfile } from '../auth.ts';
import type { AuthCode, TaskUserChoice, UserDevice } from '../authcode.ts';
import type { BlacklistAddResult, BlacklistEntry } from '../blacklist.ts';
import type { Dept, DeptChoice } from '../dept.ts';
import type { DeviceActivation, DeviceBatch, DeviceDeliveryResult, DevicePull, DeviceReportResult, DeviceRow } from '../device.ts';
import type { DeviceRepliesResult, ReplyRow } from '../reply.ts';
import type { Aisle, AisleGrid, Machine, MachineKeyAnswer, MachineOption } from '../machine.ts';
import type { Module, ModuleTreeNode } from '../menu.ts';
import type { LoginLog, OnlineSession, OperLog } from '../monitor.ts';
import type { Order, OrderDetail, OrderRefundResult } from '../order.ts';
import type { PayAlarm } from '../payAlarm.ts';
import type { PayConfig } from '../payConfig.ts';
import type { Permission } from '../permission.ts';
import type { ReconcileConfigChoice, ReconcileDiff, ReconcileRun, ReconcileRunAnswer } from '../reconcile.ts';
import type { Role, RoleGrantTree, RoleOption, RoleRightNode } from '../role.ts';
import type { SalesCharts, SalesChartsOptions } from '../salesCharts.ts';
import type { StatisticsTotals, TaskUserStatistics } from '../statistics.ts';
import type { SystemSnapshot } from '../systemMonitor.ts';
import type { Task } from '../task.ts';
import type { TerminalOrderCreated, TerminalOrderStatus } from '../terminal.ts';
import type { TerminalConfig, TerminalMachineChoice, TerminalPayConfigChoice } from '../terminalConfig.ts';
import type { UploadResultItem, UploadTaskDataResult } from '../upload.ts';
import type { User, UserDeptNode, UserPasswordReset, UserSaveAnswer } from '../user.ts';
import type { Variable } from '../variable.ts';
import type * as figures from './figures.ts';
import type { SameShape } from './index.ts';
import type * as pay from './pay.ts';
import type * as sync from './sync.ts';
import type * as system from './system.ts';

// Each answer schema and the contract type of its name are the same shape, checked by `npm run
// typecheck` (nothing runs this file): a field added, dropped or retyped on one side only fails here,
// naming the schema, so the OpenAPI document cannot drift from what the console reads.

type Out<S extends z.ZodType> = z.output<S>;

export const answerChecks = [
  true satisfies SameShape<Out<typeof system.loginAnswer>, LoginAnswer>,
  true satisfies SameShape<Out<typeof system.menuNode>, MenuNode>,
  true satisfies SameShape<Out<typeof system.currentUser>, CurrentUser>,
  true satisfies SameShape<Out<typeof system.userProfile>, UserProfile>,
  true satisfies SameShape<Out<typeof system.userRow>, User>,
  true satisfies SameShape<Out<typeof system.userSaveAnswer>, UserSaveAnswer>,
  true satisfies SameShape<Out<typeof system.userPasswordReset>, UserPasswordReset>,
  true satisfies SameShape<Out<typeof system.userDeptNode>, UserDeptNode>,
  true satisfies SameShape<Out<typeof system.deptRow>, Dept>,
  true satisfies SameShape<Out<typeof system.deptChoice>, DeptChoice>,
  true satisfies SameShape<Out<typeof system.roleRow>, Role>,
  true satisfies SameShape<Out<typeof system.roleOption>, RoleOption>,
  true satisfies SameShape<Out<typeof system.roleRightNode>, RoleRightNode>,
  true satisfies SameShape<Out<typeof system.roleGrantTree>, RoleGrantTree>,
  true satisfies SameShape<Out<typeof system.permissionRow>, Permission>,
  true satisfies SameShape<Out<typeof system.moduleRow>, Module>,
  true satisfies SameShape<Out<typeof system.moduleTreeNode>, ModuleTreeNode>,
  true satisfies SameShape<Out<typeof system.operLogRow>, OperLog>,
  true satisfies SameShape<Out<typeof system.loginLogRow>, LoginLog>,
  true satisfies SameShape<Out<typeof system.onlineSession>, OnlineSession>,
  true satisfies SameShape<Out<typeof system.variableRow>, Variable>,
  true satisfies SameShape<Out<typeof sync.authCodeRow>, AuthCode>,
  true satisfies SameShape<Out<typeof sync.taskUserChoice>, TaskUserChoice>,
  true satisfies SameShape<Out<typeof sync.userDevice>, UserDevice>,
  true satisfies SameShape<Out<typeof sync.taskRow>, Task>,
  true satisfies SameShape<Out<typeof sync.statisticsTotals>, StatisticsTotals>,
  true satisfies SameShape<Out<typeof sync.taskUserStatisticsRow>, TaskUserStatistics>,
  true satisfies SameShape<Out<typeof sync.uploadResultItem>, UploadResultItem>,
  true satisfies SameShape<Out<typeof sync.uploadTaskDataResult>, UploadTaskDataResult>,
  true satisfies SameShape<Out<typeof sync.blacklistRow>, BlacklistEntry>,
  true satisfies SameShape<Out<typeof sync.blacklistAddResult>, BlacklistAddResult>,
  true satisfies SameShape<Out<typeof sync.deviceActivation>, DeviceActivation>,
  true satisfies SameShape<Out<typeof sync.deviceBatch>, DeviceBatch>,
  true satisfies SameShape<Out<typeof sync.devicePull>, DevicePull>,
  true satisfies SameShape<Out<typeof sync.deviceReportResult>, DeviceReportResult>,
  true satisfies SameShape<Out<typeof sync.deviceRow>, DeviceRow>,
  true satisfies SameShape<Out<typeof sync.deviceDeliveryResult>, DeviceDeliveryResult>,
  true satisfies SameShape<Out<typeof sync.deviceRepliesResult>, DeviceRepliesResult>,
  true satisfies SameShape<Out<typeof sync.replyRow>, ReplyRow>,
  true satisfies SameShape<Out<typeof pay.machineRow>, Machine>,
  true satisfies SameShape<Out<typeof pay.machineOption>, MachineOption>,
  true satisfies SameShape<Out<typeof pay.machineKeyAnswer>, MachineKeyAnswer>,
  true satisfies SameShape<Out<typeof pay.aisleRow>, Aisle>,
  true satisfies SameShape<Out<typeof pay.aisleGrid>, AisleGrid>,
  true satisfies SameShape<Out<typeof pay.terminalConfigRow>, TerminalConfig>,
  true satisfies SameShape<Out<typeof pay.terminalMachineChoice>, TerminalMachineChoice>,
  true satisfies SameShape<Out<typeof pay.terminalPayConfigChoice>, TerminalPayConfigChoice>,
  true satisfies SameShape<Out<typeof pay.payConfigRow>, PayConfig>,
  true satisfies SameShape<Out<typeof pay.orderRow>, Order>,
  true satisfies SameShape<Out<typeof pay.orderDetail>, OrderDetail>,
  true satisfies SameShape<Out<typeof pay.orderRefundResult>, OrderRefundResult>,
  true satisfies SameShape<Out<typeof pay.payAlarmRow>, PayAlarm>,
  true satisfies SameShape<Out<typeof pay.reconcileRunRow>, ReconcileRun>,
  true satisfies SameShape<Out<typeof pay.reconcileDiffRow>, ReconcileDiff>,
  true satisfies SameShape<Out<typeof pay.reconcileConfigChoice>, ReconcileConfigChoice>,
  true satisfies SameShape<Out<typeof pay.reconcileRunAnswer>, ReconcileRunAnswer>,
  true satisfies SameShape<Out<typeof pay.terminalOrderCreated>, TerminalOrderCreated>,
  true satisfies SameShape<Out<typeof pay.terminalOrderStatus>, TerminalOrderStatus>,
  true satisfies SameShape<Out<typeof figures.salesCharts>, SalesCharts>,
  true satisfies SameShape<Out<typeof figures.salesChartsOptions>, SalesChartsOptions>,
  true satisfies SameShape<Out<typeof figures.systemSnapshot>, SystemSnapshot>,
];
