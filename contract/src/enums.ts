// Every status / type number and its label. Elsewhere code uses the names, never the bare numbers.

import { authcode, monitor, task } from './messages.ts';
import { machine as machineText } from './messages.ts';

export type Option<V extends string | number> = { value: V; label: string };

export const RoleId = { companyAdmin: 1, ordinaryUser: 2, superAdmin: 3, demo: 4 } as const;
export const SUPER_ADMIN_USER_ID = 1;

export const LockStatus = { normal: 'N', locked: 'Y' } as const;
export type LockStatus = (typeof LockStatus)[keyof typeof LockStatus];
export const lockStatusOptions: Option<LockStatus>[] = [
  { value: 'N', label: '正常' },
  { value: 'Y', label: '锁定' },
];

export const sexOptions: Option<string>[] = [
  { value: '男', label: '男' },
  { value: '女', label: '女' },
];

export const PayType = {
  none: 0, cash: 1, alipay: 2, wechat: 3, pos: 4, quickPass: 5, posCScanB: 6, unionQr: 8, memberBalance: 9,
} as const;
export const payTypeOptions: Option<number>[] = [
  { value: 1, label: '现金' },
  { value: 2, label: '支付宝' },
  { value: 3, label: '微信支付' },
  { value: 4, label: 'POS' },
  { value: 5, label: '闪付' },
  { value: 6, label: 'POS C扫B' },
  { value: 8, label: '银联二维码' },
  { value: 9, label: '会员余额' },
];

export const OrderStatus = {
  created: 1, paid: 2, dispensed: 3, dispenseFailed: 4, timedOut: 5, processing: 10,
  refundCreated: 11, refunding: 12, refunded: 13, refundFailed: 14,
} as const;
export const orderStatusOptions: Option<number>[] = [
  { value: 1, label: '初始化' },
  { value: 2, label: '已支付' },
  { value: 3, label: '出货成功' },
  { value: 4, label: '出货失败' },
  { value: 5, label: '订单超时' },
  { value: 10, label: '处理中' },
  { value: 11, label: '退款初始化' },
  { value: 12, label: '退款中' },
  { value: 13, label: '退款成功' },
  { value: 14, label: '退款失败' },
];

/** pay_order.transType (SPEC §3 Order: consumption or refund); labels in orderLabels.ts (transTypeOptions). */
export const TransType = { consume: 1, refund: 2 } as const;

/**
 * pay_alarm.kind: what the payment half records when money and an order disagree (modules/pay/orders/
 * service.ts, refund.ts). A notification that is not signed (bad signature, unknown order) is only
 * logged, never stored: anyone can send one.
 */
export const PayAlarmKind = {
  /** A signed paid notification whose order number, amount, merchant or app id differs from the order. */
  notifyMismatch: 'notifyMismatch',
  /** The gateway's query says paid, with another amount than the order's. */
  amountMismatch: 'amountMismatch',
  /** A notification signed with the order's 支付配置 but sent by another gateway than the one it names. */
  configMismatch: 'configMismatch',
  /** A payment arriving after the order closed (5 订单超时): marked for an automatic refund. */
  latePayment: 'latePayment',
  /** The gateway refused an automatic refund (dispense failure, late payment): refund by hand. */
  autoRefundFailed: 'autoRefundFailed',
  /** A console refund whose gateway could not be built for PAY_RECOVER_SECONDS ended 退款失败: refund again or by hand. */
  refundFailed: 'refundFailed',
} as const;
export type PayAlarmKind = (typeof PayAlarmKind)[keyof typeof PayAlarmKind];
/** Their labels: payAlarmKindOptions in payAlarmLabels.ts (the labels load with 支付告警 only). */

export const TaskStatus = { running: 0, paused: 1, completed: 2 } as const;
export const taskStatusOptions: Option<number>[] = [
  { value: 0, label: '运行中' },
  { value: 1, label: '已暂停' },
  { value: 2, label: '已完成' },
];

export const ShowType = { text: 1, image: 2, textImage: 3, file: 4, contact: 5, schedule: 6 } as const;
export const showTypeOptions: Option<number>[] = [
  { value: 1, label: '文本' },
  { value: 2, label: '图片' },
  { value: 3, label: '文本+图片' },
  { value: 4, label: '文件' },
  { value: 5, label: '名片' },
  { value: 6, label: '日程' },
];

/** exportType of /sync/exportTask (SPEC §7.1): 1 all, 2 unsent (the default), 3 sent. */
export const TaskExportType = { all: 1, unsent: 2, sent: 3 } as const;
export const taskExportTypeOptions: Option<number>[] = [
  { value: TaskExportType.all, label: task.exportAll },
  { value: TaskExportType.unsent, label: task.exportUnsent },
  { value: TaskExportType.sent, label: task.exportSent },
];

/** isRandomNum (0 no, 1 yes) and randomPosition (0 prefix, 1 suffix) of SPEC §3. */
export const RandomNum = { no: 0, yes: 1 } as const;
export const RandomPosition = { prefix: 0, suffix: 1 } as const;
export const randomNumOptions: Option<number>[] = [
  { value: RandomNum.no, label: task.no },
  { value: RandomNum.yes, label: task.yes },
];
export const randomPositionOptions: Option<number>[] = [
  { value: RandomPosition.prefix, label: task.prefix },
  { value: RandomPosition.suffix, label: task.suffix },
];

/**
 * State of a number of a task (sync_task_number.state). 2, 3 and 4 are final: sent, finally failed
 * (after the retries), blocked (put on the do-not-contact list after its upload, never handed out).
 */
export const TaskNumberState = { pending: 0, leased: 1, sent: 2, failed: 3, blocked: 4 } as const;

/** A sent number's delivery outcome, from its device's delivery report (none reported: null). */
export const DeliveryState = { delivered: 1, undelivered: 2 } as const;

/** What a device can send (declared at activation); what each showType needs of it is in device.ts. */
export const DeviceCapability = { text: 'text', image: 'image', file: 'file', contact: 'contact', schedule: 'schedule' } as const;
export type DeviceCapability = (typeof DeviceCapability)[keyof typeof DeviceCapability];
export const deviceCapabilityOptions: Option<DeviceCapability>[] = [
  { value: DeviceCapability.text, label: '文字' },
  { value: DeviceCapability.image, label: '图片' },
  { value: DeviceCapability.file, label: '文件' },
  { value: DeviceCapability.contact, label: '名片' },
  { value: DeviceCapability.schedule, label: '日程' },
];

/** Authorization code useStatus (SPEC §3): 1 used (a device is bound), anything else unused. */
export const AuthCodeUseStatus = { unused: 0, used: 1 } as const;
export const isAuthCodeUsed = (useStatus: number) => useStatus === AuthCodeUseStatus.used;
export const authCodeUseStatusOptions: Option<number>[] = [
  { value: AuthCodeUseStatus.unused, label: authcode.unused },
  { value: AuthCodeUseStatus.used, label: authcode.used },
];

/** The login `code` flag (SPEC §6): 1 marks an administrator-type account. */
export const AccountCode = { ordinary: 0, administrator: 1 } as const;
/**
 * An administrator-type account. Kept with the codes, in a module that builds no zod schema: the console's
 * layout asks it on every screen, and importing a module that builds schemas brings zod into the first load.
 */
export const isAdministratorAccount = (user: { code: number } | undefined) => user?.code === AccountCode.administrator;

/** The result of a logged operation or login attempt (sys_oper_log.success, sys_login_log.success). */
export const LogResult = { failure: 0, success: 1 } as const;
export type LogResult = (typeof LogResult)[keyof typeof LogResult];
export const logResultOptions: Option<LogResult>[] = [
  { value: LogResult.success, label: monitor.resultSuccess },
  { value: LogResult.failure, label: monitor.resultFailure },
];

/** sys_module.isLeaf: a group (menu heading) or a screen. */
export const ModuleLeaf = { group: 0, screen: 1 } as const;

export function labelOf<V extends string | number>(options: Option<V>[], value: V | null | undefined): string {
  return options.find((o) => o.value === value)?.label ?? (value == null ? '' : String(value));
}

/** pay_machine.status and pay_aisle.status: a disabled machine or aisle takes no order. */
export const MachineStatus = { disabled: 0, enabled: 1 } as const;
export type MachineStatus = (typeof MachineStatus)[keyof typeof MachineStatus];
export const machineStatusOptions: Option<MachineStatus>[] = [
  { value: MachineStatus.enabled, label: machineText.enabled },
  { value: MachineStatus.disabled, label: machineText.disabled },
];
export const AisleStatus = MachineStatus;
export type AisleStatus = MachineStatus;
export const aisleStatusOptions = machineStatusOptions;

// Read by the answer schemas (responses/) as well as their own areas, which re-export them: here, so no
// area file and its schema import each other.
/** Why a pull answered no batch; the device shows `message` and asks again after retryAfterSeconds. */
export const DeviceWaitReason = {
  noTask: 'noTask',
  taskPaused: 'taskPaused',
  taskCompleted: 'taskCompleted',
  noPending: 'noPending',
  dailyCap: 'dailyCap',
  quotaUsedUp: 'quotaUsedUp',
  codeExpired: 'codeExpired',
  /** Every running task of the device needs something it cannot send (capabilities). */
  unsupportedType: 'unsupportedType',
  /** Every task it could send is outside its sending window now. */
  outsideWindow: 'outsideWindow',
} as const;
export type DeviceWaitReason = (typeof DeviceWaitReason)[keyof typeof DeviceWaitReason];

/** pay_reconcile_diff.category. */
export const ReconcileCategory = {
  /** the gateway's bill has it, we have no such paid order / successful refund (on any day) */
  gatewayOnly: 'gatewayOnly',
  /** we have it paid / refunded that day, the gateway's bill (of that day or the next) has not */
  platformOnly: 'platformOnly',
  amount: 'amount',
  /** both have the number, but our side is not paid / not refunded */
  status: 'status',
} as const;
export type ReconcileCategory = (typeof ReconcileCategory)[keyof typeof ReconcileCategory];

/** pay_reconcile_run.result. */
export const ReconcileResult = { running: 'running', matched: 'matched', different: 'different', failed: 'failed' } as const;
export type ReconcileResult = (typeof ReconcileResult)[keyof typeof ReconcileResult];


export const chartGranularities = ['day', 'month', 'year'] as const;
export type ChartGranularity = (typeof chartGranularities)[number];
