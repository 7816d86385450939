import { z } from 'zod';
import { MachineStatus, ReconcileCategory, ReconcileResult } from '../enums.ts';
import { PayOpen } from '../payOpen.ts';
import { payConfigSecretFields, payConfigTextFields, payGateways } from '../payGateways.ts';
import { epochMs, id, savedId, textColumns, time, yuan } from './envelope.ts';

// The answers of the 售货机 / 支付 area (机器, 货道, 终端支付配置, 支付配置, 订单, 支付告警, 对账) and of
// the terminal protocol (docs/terminal-protocol.md): the one definition of each shape; the contract's
// type of the same name is its z.output (a type-only import, so the console loads no zod schema for it).

const count = z.number().int();
const machineStatus = z.union([z.literal(MachineStatus.disabled), z.literal(MachineStatus.enabled)]);

// machine and aisle
/**
 * - `lastSeenAt`: 'YYYY-MM-DD HH:mm:ss', '' when it never called in.
 */
export const machineRow = z.object({
  machineId: id, machineNo: z.string(), machineName: z.string(), deptId: id, deptName: z.string(), address: z.string(),
  status: machineStatus, lastSeenAt: time, online: z.boolean(), addUser: z.string(), editUser: z.string(), addTime: time, editTime: time,
});
export const machineOption = z.object({ machineId: id, machineNo: z.string(), machineName: z.string(), deptName: z.string(), status: machineStatus });
export const machineKeyAnswer = z.object({ machineId: id, machineNo: z.string(), terminalKey: z.string() });
/** A new machine answers its terminal key (shown once); an edit, its id. */
export const machineSaved = z.union([machineKeyAnswer, savedId('machineId')]);
/**
 * - `reportedStock`: What the machine last reported in its heartbeat (null: never), and when ('' never).
 */
export const aisleRow = z.object({
  aisleId: id, machineId: id, aisleNo: z.string(), layer: count, aisleColumn: count, goodsNo: z.string(), goodsName: z.string(),
  price: yuan, capacity: count, stock: count, reportedStock: count.nullable(), reportedAt: time, status: machineStatus,
  editUser: z.string(), editTime: time,
});
export const aisleGrid = z.object({ machine: machineOption, aisles: z.array(aisleRow) });
export const aisleSaved = z.object({ aisleId: id, aisleNo: z.string() });
export const aisleGridCreated = z.object({ created: count, kept: count, machineNo: z.string() });
export const aislesRestocked = z.object({ count });

// terminal pay config and pay config
/**
 * - `payConfigName`: The bound 支付配置's own name.
 */
export const terminalConfigRow = z.object({
  tcId: id, deptId: id, deptName: z.string(), machineNo: z.string(), machineName: z.string(), payType: z.number().int(),
  configId: id, configName: z.string(), payConfigName: z.string(), payOpen: z.enum([PayOpen.normal, PayOpen.disabled]),
  posNo: z.string(), editUser: z.string(), editTime: time,
});
export const terminalMachineChoice = z.object({ machineNo: z.string(), machineName: z.string(), deptId: id, deptName: z.string() });
export const terminalPayConfigChoice = z.object({ id, name: z.string(), payType: z.number().int(), gateway: z.string() });
/** The secrets answer masked (set or not), never their text. */
export const payConfigRow = z.object({
  id, deptId: id, deptName: z.string(), name: z.string(), payType: z.number().int(), gateway: z.enum(payGateways),
  ...textColumns(payConfigTextFields), ...textColumns(payConfigSecretFields),
  addUser: z.string(), editUser: z.string(), addTime: time, editTime: time,
});
/** 检测: what one signed call with the saved keys proved; each failed check names the field to fix. */
export const payConfigCheckAnswer = z.object({
  ok: z.boolean(), message: z.string(), checks: z.array(z.object({ name: z.string(), ok: z.boolean(), message: z.string() })),
});

// orders, alarms, reconciliation
/**
 * - `goodsPrice`: Yuan, two decimals.
 * - `payAmount`: Yuan, two decimals; negative for refunds.
 * - `createTime`: 'YYYY-MM-DD HH:mm:ss' Asia/Shanghai.
 * - `payTime`: '' while unpaid.
 * - `refundedAmount`: Yuan refunded (退款成功) of a consumption order; '0.00' for a refund row.
 * - `refundableAmount`: Yuan still refundable: paid − refunded − reserved by refunds under way; '0.00' when unpaid or a refund row.
 * - `parentId`: A refund row's order (its orderId); null for a consumption order.
 * - `failReason`: Why a refund failed (退款失败), as the gateway said; ''.
 */
export const orderRow = z.object({
  orderId: id, deptId: id, deptName: z.string(), orderNo: z.string(), transId: z.string(), payType: z.number().int(),
  subPayType: z.number().int(), transType: z.number().int(), machineNo: z.string(), goodsNo: z.string(), goodsName: z.string(),
  goodsPrice: yuan, payAmount: yuan, aisleNo: z.string(), orderStatus: z.number().int(), openId: z.string(), mchId: z.string(),
  subMchId: z.string(), remark: z.string(), createTime: time, payTime: time, refundedAmount: yuan, refundableAmount: yuan,
  parentId: id.nullable(), failReason: z.string(),
});
export const orderDetail = z.object({ order: orderRow, refunds: z.array(orderRow) });
export const orderRefundResult = z.object({ refund: orderRow, order: orderRow });
/**
 * - `deptId`: 0: the order was not found (the super administrator sees these only).
 * - `createTime`: 'YYYY-MM-DD HH:mm:ss' Asia/Shanghai.
 */
export const payAlarmRow = z.object({
  alarmId: id, kind: z.string(), orderNo: z.string(), machineNo: z.string(), deptId: id, deptName: z.string(), detail: z.string(), createTime: time,
});
/**
 * - `platformAmount`: yuan text, refunds subtracted
 * - `finishTime`: 'YYYY-MM-DD HH:mm:ss' Asia/Shanghai, '' while running
 */
export const reconcileRunRow = z.object({
  runId: id, day: z.string(), configId: id, configName: z.string(), gateway: z.string(), deptId: id, deptName: z.string(),
  platformCount: count, platformAmount: yuan, gatewayCount: count, gatewayAmount: yuan, diffCount: count, unhandledCount: count,
  result: z.enum(Object.values(ReconcileResult) as [ReconcileResult, ...ReconcileResult[]]), message: z.string(), runBy: z.string(), finishTime: time,
});
export const reconcileDiffRow = z.object({
  diffId: id, runId: id, category: z.enum(Object.values(ReconcileCategory) as [ReconcileCategory, ...ReconcileCategory[]]),
  kind: z.enum(['payment', 'refund']), orderNo: z.string(), refundNo: z.string(), gatewayTradeNo: z.string(),
  platformAmount: yuan, platformStatus: z.string(), gatewayAmount: yuan, gatewayStatus: z.string(), gatewayTime: time,
  handled: z.union([z.literal(0), z.literal(1)]), handleNote: z.string(), handledBy: z.string(), handledTime: time,
});
export const reconcileConfigChoice = z.object({ configId: id, name: z.string(), gateway: z.string(), deptName: z.string() });
export const reconcileRunAnswer = z.object({ runs: count, diffs: count });

// the terminal protocol
export const terminalOrderCreated = z.object({
  orderNo: z.string(), codeUrl: z.string().describe('付款二维码的内容'), amount: yuan, expireAt: epochMs.describe('未付款的订单在此时关闭'),
});
/**
 * - `refundedAmount`: Yuan given back so far (退款成功): after 出货失败 the machine can tell the customer the money is back.
 */
export const terminalOrderStatus = z.object({
  orderNo: z.string(), orderStatus: z.number().int().describe('订单状态（docs/terminal-protocol.md §6）'), amount: yuan,
  payTime: epochMs.nullable(), expireAt: epochMs.nullable(),
  refundedAmount: yuan.describe('已退回的金额（退款成功）：出货失败后售货机可告诉顾客钱已退回'),
});
export const terminalHeartbeatAnswer = z.object({
  serverTime: epochMs.describe('服务器时间'),
  aisles: count.describe('存下库存的货道数'),
});

export const paySaved = { terminalConfig: savedId('tcId'), payConfig: savedId('id') };
