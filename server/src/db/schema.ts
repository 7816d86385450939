import type { Generated, Kysely, Transaction } from 'kysely';

// Table types for Kysely. Times are epoch milliseconds (bigint in PostgreSQL, parsed to number).

export interface DeptTable {
  deptId: Generated<number>;
  deptName: string;
  deptNo: string;
  parentId: number;
  addUser: string;
  editUser: string;
  addTime: number;
  editTime: number;
}

export interface RoleTable {
  roleId: Generated<number>;
  systemNo: string;
  roleNo: string;
  roleName: string;
  /** 1 for administrator-type roles: their users log in with code 1 (SPEC §6). */
  isAdmin: number;
  addTime: number;
  editTime: number;
}

export interface UserTable {
  userId: Generated<number>;
  userName: string;
  userRealName: string;
  passwordHash: string;
  userSex: string;
  userMobile: string;
  userEmail: string;
  isLock: string;
  deptId: number | null;
  roleId: number;
  systemNo: string;
  addUser: string;
  editUser: string;
  addTime: number;
  editTime: number;
  // task-account counters (migration 0003)
  totalSendNum: Generated<number>;
  smcount: Generated<number>;
  sucount: Generated<number>;
  stcount: Generated<number>;
  socount: Generated<number>;
  sendNum: Generated<number>;
  hisTotalSendNum: Generated<number>;
  /** Delivered messages (delivery reports) since the last 清除总数, beside totalSendNum. */
  deliveredNum: Generated<number>;
}

export interface ModuleTable {
  moduleId: Generated<number>;
  parentId: number;
  moduleLevel: number;
  systemNo: string;
  isLeaf: number;
  fullIndex: string;
  moduleIcon: string;
  moduleOrder: number;
  moduleName: string;
  moduleNotes: string;
  moduleUrl: string;
}

export interface RoleRightTable {
  roleId: number;
  moduleId: number;
}

export interface PermissionTable {
  permissionId: Generated<number>;
  permissionName: string;
  permission: string;
}

export interface RolePermissionTable {
  roleId: number;
  permissionId: number;
}

export interface UserDeptTable {
  userId: number;
  deptId: number;
}

export interface VariableTable {
  varId: Generated<number>;
  varLable: string;
  varName: string;
  varValue: string;
  deptId: number | null;
  addUser: string;
  editUser: string;
  addTime: number;
  editTime: number;
}

export interface SessionTable {
  /** sha256 of the token: a leaked table gives no usable token. */
  tokenHash: string;
  userId: number;
  createdAt: number;
  lastSeenAt: number;
  idleMs: number;
  ip: string;
  userAgent: string;
}

export interface OperLogTable {
  operId: Generated<number>;
  userId: number | null;
  userName: string;
  deptId: number | null;
  module: string;
  action: string;
  target: string;
  method: string;
  url: string;
  ip: string;
  success: number;
  message: string;
  costMs: number;
  operTime: number;
}

export interface LoginLogTable {
  infoId: Generated<number>;
  userName: string;
  userId: number | null;
  deptId: number | null;
  ip: string;
  userAgent: string;
  success: number;
  message: string;
  loginTime: number;
}

/** The distinct values of a searched column (search-index.ts `valueLists`): filled by a trigger (0020). */
export interface ValueListTable {
  id: Generated<number>;
  value: string;
}

export interface TaskTable {
  taskId: Generated<number>;
  taskName: string;
  showType: number;
  content: string;
  imgUrl: string;
  fileNo: string;
  fileName: string;
  qrUrl: string;
  taskStatus: number;
  singleSendNumDay: number;
  batchSendNum: number;
  batchSendMaxNum: number;
  intervalSeconds: number;
  testNum: number;
  testPhone: string;
  clearNum: number;
  isRandomNum: number;
  randomPosition: number;
  totalNum: Generated<number>;
  mcount: Generated<number>;
  ucount: Generated<number>;
  tcount: Generated<number>;
  ocount: Generated<number>;
  totalSendNum: Generated<number>;
  smcount: Generated<number>;
  sucount: Generated<number>;
  stcount: Generated<number>;
  socount: Generated<number>;
  failNum: Generated<number>;
  duplicateNum: Generated<number>;
  invalidNum: Generated<number>;
  blockedNum: Generated<number>;
  dispatchedNum: Generated<number>;
  /** Rows of the task in a final state (sent, failed, blocked); the task completes when it reaches totalNum. */
  doneNum: Generated<number>;
  /** The sending window, "HH:mm" Beijing time; both '' = any time (migration 0035). */
  sendStartTime: Generated<string>;
  sendEndTime: Generated<string>;
  /** Delivery reports counted once per number (docs/device-protocol.md, delivery reports). */
  deliveredNum: Generated<number>;
  undeliveredNum: Generated<number>;
  userId: number;
  deptId: number | null;
  addTime: number;
  editTime: number;
}

export interface TaskDeviceTable {
  taskId: number;
  machineCode: string;
}

export interface TaskNumberTable {
  id: Generated<number>;
  taskId: number;
  phone: number;
  carrier: number;
  state: Generated<number>;
  attempts: Generated<number>;
  batchId: string | null;
  leaseUntil: number | null;
  machineCode: string | null;
  doneAt: number | null;
  failReason: string | null;
  /** DeliveryState of a sent number: null until its device reports one (migration 0035). */
  deliveryState: number | null;
  deliveredAt: number | null;
  deliveryReason: string | null;
}

/** Where a task's fresh claims go on (migration 0007): its numbers with id ≤ claimedTo have been handed out at least once. */
export interface TaskCursorTable {
  taskId: number;
  claimedTo: Generated<number>;
}

/** A pulled batch's fresh numbers: the task's pending numbers with fromId ≤ id ≤ toId (migration 0007). */
export interface BatchTable {
  batchId: string;
  taskId: number;
  machineCode: string;
  fromId: number;
  toId: number;
  /** Fresh numbers handed out (the range's pending numbers, those blocked at the claim left out). */
  size: number;
  /** Of those, how many a report has made final or given back. */
  doneNum: Generated<number>;
  leaseUntil: number;
  /** BatchState: 0 open, 1 reported, 2 lapsed (lease ended, unreported numbers given back). */
  state: Generated<number>;
  addTime: number;
}

export interface UploadTable {
  fileNo: string;
  fileName: string;
  filePath: string;
  kind: string;
  size: number;
  userId: number | null;
  deptId: number | null;
  addTime: number;
}

export interface AuthCodeTable {
  id: Generated<number>;
  authCode: string;
  authUserId: number;
  useStatus: Generated<number>;
  machineCode: string | null;
  machineName: string | null;
  dueNum: number;
  dueDateNum: number;
  dueDate: number;
  activatedAt: number | null;
  tokenHash: string | null;
  /** Claims made by the device; a claim checks it is still what its pull read (migration 0007). */
  pulls: Generated<number>;
  lastSeenAt: number | null;
  battery: number | null;
  signalLevel: number | null;
  appVersion: string | null;
  /** Comma list of DeviceCapability declared at activation; null = everything (migration 0035). */
  capabilities: string | null;
  /** The last heartbeat's state text (限额已满 …); '' or null when none. */
  deviceState: string | null;
  addUserId: number | null;
  deptId: number | null;
  addTime: number;
  editTime: number;
}

export interface SendDailyTable {
  userId: number;
  day: string;
  sendCount: number;
  deliveredCount: Generated<number>;
  undeliveredCount: Generated<number>;
}

export interface DeviceDailyTable {
  machineCode: string;
  day: string;
  sendCount: number;
}

export interface BlacklistTable {
  deptId: number;
  phone: number;
  addUser: string;
  addTime: number;
  /** How the number came onto the list: BlacklistSource (migration 0036). */
  source: Generated<string>;
}

/** A reply a device received (migration 0036): the device owner's company and account, the task linked. */
export interface ReplyTable {
  id: Generated<number>;
  deptId: number | null;
  userId: number;
  authCodeId: number;
  machineCode: string;
  machineName: string;
  messageId: string;
  phone: string;
  content: string;
  receivedAt: number;
  createdAt: number;
  taskId: number | null;
  unsubscribed: number;
}

/** 支付配置. Sealed columns hold `s1.…` values (infra/secret-box.ts) or '' when not set. */
export interface PayConfigTable {
  id: Generated<number>;
  deptId: number;
  name: string;
  payType: number;
  /** Which gateway serves it: 'simulator' | 'wechat_v2' | 'wechat_v3' | 'alipay' (contract). */
  gateway: string;
  partner: Generated<string>;
  subMchId: Generated<string>;
  appid: Generated<string>;
  notifyUrl: Generated<string>;
  signType: Generated<string>;
  sellerUserId: Generated<string>;
  certSerialNo: Generated<string>;
  platformPubKeyId: Generated<string>;
  platformPubKey: Generated<string>;
  alipayPublicKey: Generated<string>;
  partnerKey: Generated<string>;
  certPassword: Generated<string>;
  rsaKey: Generated<string>;
  apiV3Key: Generated<string>;
  appPrivateKey: Generated<string>;
  /** sealed: the WeChat v2 merchant API certificate (PKCS#12 base64 or PEM), migration 0029 */
  apiCert: Generated<string>;
  addUser: Generated<string>;
  editUser: Generated<string>;
  addTime: number;
  editTime: number;
}

/** 售货机. terminalKey is sealed. */
export interface MachineTable {
  machineId: Generated<number>;
  machineNo: string;
  machineName: string;
  deptId: number;
  address: Generated<string>;
  status: Generated<number>;
  terminalKey: string;
  lastSeenAt: number | null;
  addUser: Generated<string>;
  editUser: Generated<string>;
  addTime: number;
  editTime: number;
}

/** 货道. price in fen; 0 ≤ stock ≤ capacity is a check constraint. */
export interface AisleTable {
  aisleId: Generated<number>;
  machineId: number;
  aisleNo: string;
  layer: number;
  aisleColumn: number;
  goodsNo: Generated<string>;
  goodsName: Generated<string>;
  price: Generated<number>;
  capacity: Generated<number>;
  stock: Generated<number>;
  status: Generated<number>;
  /** What the machine last reported (terminal heartbeat), and when. */
  reportedStock: Generated<number | null>;
  reportedAt: Generated<number | null>;
  addUser: Generated<string>;
  editUser: Generated<string>;
  addTime: number;
  editTime: number;
}

/** 终端支付配置: one row per (machineNo, payType). */
export interface TerminalConfigTable {
  tcId: Generated<number>;
  deptId: number;
  machineNo: string;
  payType: number;
  configId: number;
  configName: string;
  payOpen: Generated<string>;
  posNo: Generated<string>;
  addUser: Generated<string>;
  editUser: Generated<string>;
  addTime: number;
  editTime: number;
}

/** 交易订单 (SPEC §3 Order), amounts in fen; a refund row has a negative payAmount. */
export interface OrderTable {
  orderId: Generated<number>;
  deptId: number;
  orderNo: string;
  transId: Generated<string>;
  payType: number;
  subPayType: Generated<number>;
  transType: number;
  machineNo: string;
  goodsNo: Generated<string>;
  goodsName: Generated<string>;
  goodsPrice: number;
  payAmount: number;
  aisleNo: Generated<string>;
  orderStatus: number;
  openId: Generated<string>;
  mchId: Generated<string>;
  subMchId: Generated<string>;
  remark: Generated<string>;
  createTime: number;
  payTime: number | null;
  configId: Generated<number>;
  aisleId: Generated<number>;
  expireAt: Generated<number | null>;
  updateTime: Generated<number | null>;
  dispenseTime: Generated<number | null>;
  closeTime: Generated<number | null>;
  dispenseMessage: Generated<string>;
  claimBy: Generated<string>;
  claimUntil: Generated<number | null>;
  refundNeeded: Generated<number>;
  parentId: Generated<number | null>;
  refundedAmount: Generated<number>;
  reservedAmount: Generated<number>;
  requestKey: Generated<string>;
  failReason: Generated<string>;
}

export interface TerminalNonceTable { machineId: number; nonce: string; expireAt: number }
/** deptId / machineNo (0019): the order's, set when the alarm is written; 0 / '' when the order is unknown. */
export interface PayAlarmTable { alarmId: Generated<number>; kind: string; orderNo: Generated<string>; deptId: Generated<number>; machineNo: Generated<string>; detail: Generated<string>; createTime: number }
export interface SimPaymentTable {
  orderNo: string; configId: number; amount: number; mchId: Generated<string>; appId: Generated<string>; subject: Generated<string>;
  notifyUrl: string; status: string; transId: Generated<string>; expireAt: number; createTime: number; payTime: number | null;
  acknowledged: Generated<number>;
}
export interface SimRefundTable { refundNo: string; orderNo: string; amount: number; status: string; createTime: number }

export interface Database {
  sys_dept: DeptTable;
  sys_role: RoleTable;
  sys_user: UserTable;
  sys_module: ModuleTable;
  sys_role_right: RoleRightTable;
  sys_permission: PermissionTable;
  sys_role_permission: RolePermissionTable;
  sys_user_dept: UserDeptTable;
  sys_variable: VariableTable;
  sys_session: SessionTable;
  sys_oper_log: OperLogTable;
  sys_login_log: LoginLogTable;
  sys_oper_log_user_names: ValueListTable;
  sys_login_log_user_names: ValueListTable;
  sync_task: TaskTable;
  sync_task_device: TaskDeviceTable;
  sync_task_number: TaskNumberTable;
  sync_batch: BatchTable;
  sync_task_cursor: TaskCursorTable;
  sys_upload: UploadTable;
  sync_auth_code: AuthCodeTable;
  sync_device_daily: DeviceDailyTable;
  sync_send_daily: SendDailyTable;
  sync_blacklist: BlacklistTable;
  sync_reply: ReplyTable;
  pay_config: PayConfigTable;
  pay_machine: MachineTable;
  pay_aisle: AisleTable;
  pay_terminal_config: TerminalConfigTable;
  pay_order: OrderTable;
  pay_terminal_nonce: TerminalNonceTable;
  pay_alarm: PayAlarmTable;
  pay_sim_payment: SimPaymentTable;
  pay_sim_refund: SimRefundTable;
}

/** The database or a transaction on it: where a statement that may run either way is sent. */
export type Queryable = Kysely<Database> | Transaction<Database>;
