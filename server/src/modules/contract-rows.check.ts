import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type {
  Aisle, aisleSave, AuthCode, authCodeSave, BlacklistEntry, Dept, deptSave, LoginLog, Machine, machineSave, Module, moduleSave, OperLog,
  Order, PayAlarm, PayConfig, payConfigSave, Permission, permissionSave, ReplyRow, Role, roleSave, Task, taskSave, TerminalConfig, terminalConfigSave, User, userSave,
  Variable, variableSave,
} from '@huiyun/contract';
import type { Database } from '../db/schema.ts';

// The contract's shapes and the tables agree on the keys they share, checked by `npm run typecheck`
// (nothing runs this file): a column renamed or retyped on one side only fails here, naming the keys.
// Two checks an area: what a save schema outputs fits the table's columns, and what a column holds fits
// the contract's row — except the keys the module converts on the way out (times → text, fen → yuan,
// 0/1 → boolean, null → ''), named in each check.

type Shared<A, B> = keyof A & keyof B;
/** The shared keys where a value of `From` (undefined aside: a key left out) does not fit `Into`. */
type Misfits<From, Into> = { [K in Shared<From, Into>]-?: Exclude<From[K], undefined> extends Into[K] ? never : K }[Shared<From, Into>];
/** true when they agree; otherwise a type naming the keys that do not, so the assignment of true fails. */
type Agree<From, Into, Converted extends PropertyKey = never> = [Exclude<Misfits<From, Into>, Converted>] extends [never]
  ? true
  : { misfits: Exclude<Misfits<From, Into>, Converted> };

type Row<T extends keyof Database> = Selectable<Database[T]>;
type Saved<S extends z.ZodType> = z.output<S>;
type Times = 'addTime' | 'editTime';

export const rowChecks = {
  dept: [true satisfies Agree<Saved<typeof deptSave>, Row<'sys_dept'>>, true satisfies Agree<Row<'sys_dept'>, Dept, Times>],
  variable: [true satisfies Agree<Saved<typeof variableSave>, Row<'sys_variable'>>, true satisfies Agree<Row<'sys_variable'>, Variable, Times>],
  user: [true satisfies Agree<Saved<typeof userSave>, Row<'sys_user'>>, true satisfies Agree<Row<'sys_user'>, User, Times | 'isLock'>],
  role: [true satisfies Agree<Saved<typeof roleSave>, Row<'sys_role'>, 'isAdmin'>, true satisfies Agree<Row<'sys_role'>, Role, Times | 'isAdmin'>],
  permission: [true satisfies Agree<Saved<typeof permissionSave>, Row<'sys_permission'>>, true satisfies Agree<Row<'sys_permission'>, Permission, Times>],
  module: [true satisfies Agree<Saved<typeof moduleSave>, Row<'sys_module'>>, true satisfies Agree<Row<'sys_module'>, Module, Times>],
  authcode: [true satisfies Agree<Saved<typeof authCodeSave>, Row<'sync_auth_code'>>, true satisfies Agree<Row<'sync_auth_code'>, AuthCode, 'machineCode' | 'machineName'>],
  blacklist: [true satisfies Agree<Row<'sync_blacklist'>, BlacklistEntry, Times | 'phone'>],
  reply: [true satisfies Agree<Row<'sync_reply'>, ReplyRow, 'receivedAt' | 'unsubscribed'>],
  task: [true satisfies Agree<Saved<typeof taskSave>, Row<'sync_task'>>, true satisfies Agree<Row<'sync_task'>, Task, Times>],
  machine: [true satisfies Agree<Saved<typeof machineSave>, Row<'pay_machine'>>, true satisfies Agree<Row<'pay_machine'>, Machine, Times | 'lastSeenAt' | 'status'>],
  aisle: [true satisfies Agree<Saved<typeof aisleSave>, Row<'pay_aisle'>>, true satisfies Agree<Row<'pay_aisle'>, Aisle, Times | 'status' | 'price' | 'reportedAt'>],
  payConfig: [true satisfies Agree<Saved<typeof payConfigSave>, Row<'pay_config'>>, true satisfies Agree<Row<'pay_config'>, PayConfig, Times | 'gateway'>],
  terminalConfig: [true satisfies Agree<Saved<typeof terminalConfigSave>, Row<'pay_terminal_config'>>, true satisfies Agree<Row<'pay_terminal_config'>, TerminalConfig, Times | 'payOpen'>],
  operLog: [true satisfies Agree<Row<'sys_oper_log'>, OperLog, 'operTime' | 'success'>],
  loginLog: [true satisfies Agree<Row<'sys_login_log'>, LoginLog, 'loginTime' | 'success'>],
  // money leaves as yuan text (fenToYuan), times as text
  order: [true satisfies Agree<Row<'pay_order'>, Order, 'goodsPrice' | 'payAmount' | 'refundedAmount' | 'createTime' | 'payTime'>],
  payAlarm: [true satisfies Agree<Row<'pay_alarm'>, PayAlarm, 'createTime'>],
};
