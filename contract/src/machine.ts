import { z } from 'zod';
import { aisle as a, machine as m } from './messages.ts';
import { MachineStatus } from './enums.ts';
import { idListOf, idOf, MAX_INT_COLUMN, optionalIdOf, optionalText, pageQuery, requiredText } from './fields.ts';
import { yuanToFen } from './money.ts';
import type * as payAnswers from './responses/pay.ts';

// 设备管理 (PRODUCT §5): 机器列表 (售货机; machineNo is SPEC's terminal number, each machine
// has a terminal key for the terminal protocol, shown once) and 货道信息 (a machine's aisle grid, prices
// in yuan on the wire and integer fen in the database).

/** A machine is online when it called in within this window (the terminal protocol's heartbeat). */
export const MACHINE_ONLINE_WINDOW_MS = 120_000;

export const MACHINE_NO_PATTERN = /^[A-Za-z0-9-]{1,32}$/;

/** 0 停用 / 1 启用, as a number or its text (form bodies). */
const statusOf = (message: string) =>
  z.preprocess((v) => (typeof v === 'string' && /^\d$/.test(v.trim()) ? Number(v) : v), z.union([z.literal(MachineStatus.disabled), z.literal(MachineStatus.enabled)], { error: message }));

export const machineSave = z.object({
  machineId: optionalIdOf(m.machineRequired),
  machineNo: requiredText(m.machineNoRequired, 32, m.machineNoFormat).regex(MACHINE_NO_PATTERN, m.machineNoFormat),
  machineName: requiredText(m.machineNameRequired, 64, m.nameTooLong),
  /** The company; absent: the caller's own. */
  deptId: optionalIdOf(m.deptRequired),
  address: optionalText(255, m.addressTooLong),
  status: statusOf(m.statusValue).default(MachineStatus.enabled),
});
export type MachineSave = z.infer<typeof machineSave>;

export const machineListQuery = pageQuery.extend({
  machineNo: optionalText(32),
  machineName: optionalText(64),
  /** '' or absent: all. */
  status: z.preprocess((v) => (v === '' || v == null ? undefined : v), statusOf(m.statusValue).optional()),
});
export type MachineListQuery = z.infer<typeof machineListQuery>;

export const machineIdRequest = z.object({ machineId: idOf(m.machineRequired) });
export const machineStatusRequest = z.object({ machineId: idOf(m.machineRequired), status: statusOf(m.statusValue) });
/** The machines a select offers: those of the caller's companies matching the keyword (number or name). */
export const machineOptionsQuery = z.object({ keyword: optionalText(64), machineId: optionalIdOf(m.machineRequired) });

/** A machine as the list shows it: never its terminal key. */
export type Machine = z.output<typeof payAnswers.machineRow>;

export type MachineOption = z.output<typeof payAnswers.machineOption>;

/** What creating a machine or resetting its key answers: the clear key, this once. */
export type MachineKeyAnswer = z.output<typeof payAnswers.machineKeyAnswer>;

export const machineSortFields = ['machineNo', 'machineName', 'deptName', 'status', 'lastSeenAt', 'addTime'] as const;

// ---- 货道 ----

export const MAX_AISLE_LAYERS = 26;
export const MAX_AISLE_COLUMNS = 99;
export const MAX_AISLE_CAPACITY = 999;

/** A1 … Z99: the layer's letter (1 → A) and the column's number. */
export function aisleNoOf(layer: number, column: number): string {
  return `${String.fromCharCode(64 + layer)}${column}`;
}

/** A whole number in [min, max] from a number or its digits; `message` otherwise. */
function wholeIn(min: number, max: number, message: string) {
  return z.preprocess(
    (v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v === '' || v === null ? undefined : v),
    z.number({ error: message }).int(message).min(min, message).max(max, message),
  );
}

/** A price in yuan (at most two decimals) → integer fen. */
export const yuanPrice = z
  .preprocess((v) => (typeof v === 'number' ? (Number.isFinite(v) ? String(v) : 'x') : v), z.string({ error: a.priceRequired }).trim().min(1, a.priceRequired))
  .refine((v) => yuanToFen(v) !== undefined, a.priceFormat)
  .transform((v) => yuanToFen(v)!);

const goodsNo = optionalText(32, a.goodsNoFormat).refine((v) => /^[A-Za-z0-9_-]*$/.test(v), a.goodsNoFormat);

export const aisleSave = z
  .object({
    aisleId: optionalIdOf(a.idsRequired),
    machineId: idOf(m.machineRequired),
    layer: wholeIn(1, MAX_AISLE_LAYERS, a.layerRange),
    aisleColumn: wholeIn(1, MAX_AISLE_COLUMNS, a.columnRange),
    goodsNo,
    goodsName: optionalText(64, a.goodsNameTooLong),
    price: yuanPrice,
    capacity: wholeIn(0, MAX_AISLE_CAPACITY, a.capacityRange),
    stock: wholeIn(0, MAX_INT_COLUMN, a.stockRange),
    status: statusOf(a.statusValue).default(MachineStatus.enabled),
  })
  .refine((v) => v.stock <= v.capacity, { message: a.stockOverCapacity, path: ['stock'] });
export type AisleSave = z.infer<typeof aisleSave>;

export const aisleGridQuery = z.object({ machineId: idOf(m.machineRequired) });

/** 批量生成货道: layers × columns, each new cell with the default capacity (full) and price. */
export const aisleGridCreate = z.object({
  machineId: idOf(m.machineRequired),
  layers: wholeIn(1, MAX_AISLE_LAYERS, a.layerRange),
  columns: wholeIn(1, MAX_AISLE_COLUMNS, a.columnRange),
  capacity: wholeIn(0, MAX_AISLE_CAPACITY, a.capacityRange),
  price: yuanPrice,
});
export type AisleGridCreate = z.infer<typeof aisleGridCreate>;

const aisleIds = idListOf(a.idsRequired);

/** 补满: the named aisles, or (none named) every enabled aisle of the machine. */
export const aisleRestock = z.object({ machineId: idOf(m.machineRequired), aisleIds: idListOf(a.idsRequired, { allowEmpty: true }).default([]) });
export const aisleStatusRequest = z.object({ aisleIds, status: statusOf(a.statusValue) });

/** An aisle as the screen shows it: price in yuan ('3.50'). */
export type Aisle = z.output<typeof payAnswers.aisleRow>;

export type AisleGrid = z.output<typeof payAnswers.aisleGrid>;
