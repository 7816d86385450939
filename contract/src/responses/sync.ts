import { z } from 'zod';
import { DeviceCapability, DeviceWaitReason } from '../enums.ts';
import { epochMs, id, savedId, time } from './envelope.ts';

// The answers of the 短信任务 area (授权码, 任务, 统计, 黑名单, files) and of the device protocol
// (docs/device-protocol.md): the one definition of each shape; the contract's type of the same name is
// its z.output (a type-only import, so the console loads no zod schema for it).

const count = z.number().int();

// authcode
/**
 * - `dueDateStr`: 'YYYY-MM-DD HH:mm:ss' (Asia/Shanghai) of the expiry instant.
 * - `dueDateNum`: Validity days granted so far (creation plus every recharge).
 */
export const authCodeRow = z.object({
  id, userName: z.string(), authCode: z.string(), useStatus: z.number().int(), machineCode: z.string(), machineName: z.string(),
  dueNum: count, dueDateStr: time, dueDateNum: count, authUserId: id,
});
export const taskUserChoice = z.object({ userId: id, userName: z.string() });
const capabilityList = z.array(z.enum(Object.values(DeviceCapability) as [DeviceCapability, ...DeviceCapability[]]));
export const userDevice = z.object({ machineCode: z.string(), machineName: z.string(), capabilities: capabilityList.describe('设备能发送的类型') });

// task
/**
 * - `sendStartTime`: 发送时段 "HH:mm" (both '' = any time), and whether the task is running with its window closed now (不在发送时段).
 * - `deliveredNum`: Delivery reports of its sent numbers: 送达 / 未送达.
 */
export const taskRow = z.object({
  taskId: id, taskName: z.string(), showType: z.number().int(), content: z.string(), imgUrl: z.string(), fileNo: z.string(),
  fileName: z.string(), qrUrl: z.string(), taskStatus: z.number().int(), singleSendNumDay: count, batchSendNum: count,
  batchSendMaxNum: count, intervalSeconds: z.number(), machineCodeList: z.array(z.string()), testNum: count, testPhone: z.string(),
  clearNum: count, isRandomNum: z.number().int(), randomPosition: z.number().int(),
  totalNum: count, mcount: count, ucount: count, tcount: count, ocount: count,
  totalSendNum: count, smcount: count, sucount: count, stcount: count, socount: count,
  failNum: count, duplicateNum: count, invalidNum: count, blockedNum: count,
  sendStartTime: z.string(), sendEndTime: z.string(), outsideWindow: z.boolean(), deliveredNum: count, undeliveredNum: count,
  userId: id, userName: z.string(), deptId: id.nullable(), addTime: time, editTime: time,
});
/** /sync/generateQRCodeImage: the stored image's path, for /download/file. */
export const qrImagePath = z.string();

// statistics
/**
 * - `todayDeliveredCount`: 今日送达: delivery reports counted today (Asia/Shanghai), whenever the messages were sent.
 * - `totalSendNum`: Sent in all, split 移动 smcount | 联通 sucount | 电信 stcount | 其他 socount.
 * - `sendNum`: 单次发送: sent since the last 清除单次.
 * - `deliveredNum`: 送达: delivered (delivery reports) since the last 清除总数.
 */
export const statisticsTotals = z.object({ hisTotalCount: count, totalCount: count, todayCount: count, yesterdayCount: count, todayDeliveredCount: count });
export const taskUserStatisticsRow = z.object({
  userId: id, userName: z.string(), totalSendNum: count, smcount: count, sucount: count, stcount: count, socount: count, sendNum: count,
  deliveredNum: count,
});

// files and number lists
export const uploadResultItem = z.object({ fileNo: z.string(), fileName: z.string(), filePath: z.string() });
export const invalidLine = z.object({ line: count, text: z.string() });
/**
 * - `valid`: Numbers added to the task.
 * - `duplicates`: Repeats within the file plus numbers the task already held.
 * - `invalid`: Lines / tokens that are not a mobile number.
 * - `blocked`: Numbers on the company's do-not-contact list, skipped.
 * - `byCarrier`: The added numbers split by carrier.
 * - `invalidSamples`: The first invalid tokens with their 1-based line.
 */
export const uploadTaskDataResult = z.object({
  valid: count, duplicates: count, invalid: count, blocked: count,
  byCarrier: z.object({ mobile: count, unicom: count, telecom: count, other: count }),
  invalidSamples: z.array(invalidLine),
});

// blacklist
/**
 * - `id`: blacklistKey(deptId, phone).
 * - `addTime`: For a number a reply unsubscribed: when the phone received the reply.
 * - `source`: BlacklistSource.
 */
export const blacklistRow = z.object({ id: z.string(), deptId: id, deptName: z.string(), phone: z.string(), addUser: z.string(), addTime: time,
  source: z.string().describe('来源：manual 手动添加、upload 上传号码、reply 回复退订') });
/**
 * - `added`: Numbers new to the list.
 * - `duplicates`: Repeats within the input plus numbers the list already held.
 * - `invalid`: Tokens that are not a mobile number (an upload counts them; an add refuses them).
 * - `invalidSamples`: The first invalid tokens with their 1-based line.
 */
export const blacklistAddResult = z.object({ added: count, duplicates: count, invalid: count, invalidSamples: z.array(invalidLine) });
export const blacklistDeleted = z.object({ count });

// the device protocol
/**
 * - `deviceToken`: Send as `Authorization: Bearer <deviceToken>` on every other call.
 */
export const deviceActivation = z.object({
  deviceToken: z.string().describe('之后每次调用以 Authorization: Bearer <deviceToken> 发送'),
  machineCode: z.string(), machineName: z.string(), userName: z.string().describe('授权码的归属账号'),
  dueNum: count.describe('剩余可发送条数'), dueDateStr: time.describe('授权码到期时间（北京时间）'),
});
/**
 * - `id`: The number's id, to report under; null for the task's test phone (nothing to report).
 * - `content`: The text to send to this number, the random-number rule already applied.
 * - `attempt`: How many times this number failed before (0 on its first try): `hy<id>a<attempt>` is a stable id per send.
 */
export const deviceBatchItem = z.object({
  id: id.nullable().describe('号码的 id，上报结果时用；任务的测试号码为 null（无需上报）'),
  phone: z.string(),
  content: z.string().describe('发给该号码的文本（已按随机数规则处理）'),
  test: z.boolean(),
  attempt: count.describe('该号码此前失败的次数（首次发送为 0）'),
});
/**
 * - `fileUrl`: Where the device downloads the task's image or file (with its device token).
 * - `leaseUntil`: Report before this instant (epoch ms); unreported numbers then go back to pending.
 */
export const deviceBatch = z.object({
  batchId: z.string(), taskId: id, taskName: z.string(), showType: z.number().int(), imgUrl: z.string(), fileName: z.string(),
  fileUrl: z.string().describe('任务图片或文件的下载地址（带设备令牌访问）'), qrUrl: z.string(),
  intervalSeconds: z.number(), clearNum: count,
  leaseUntil: epochMs.describe('在此之前上报；之后未上报的号码回到待发送'),
  leaseSeconds: z.number(), items: z.array(deviceBatchItem),
});
export const devicePull = z
  .union([
    z.object({ batch: deviceBatch, wait: z.null() }),
    z.object({
      batch: z.null(),
      wait: z.object({
        reason: z.enum(Object.values(DeviceWaitReason) as [DeviceWaitReason, ...DeviceWaitReason[]]),
        message: z.string().describe('给设备显示的中文原因'),
        retryAfterSeconds: z.number().describe('几秒后再拉取'),
      }),
    }),
  ])
  .describe('一批号码，或没有批次时等待的原因（二者恰有一个不为 null）');
export const deviceReportResult = z.object({
  sent: count.describe('本次记为已发送'), failed: count.describe('本次记为失败'), retrying: count.describe('失败后回到待发送重试'),
  ignored: count.describe('重复上报或已不属于该批次，忽略'), taskCompleted: z.boolean(),
});
export const deviceHeartbeatAnswer = z.object({ serverTime: epochMs.describe('服务器时间') });
/**
 * - `capabilities`: What it declared it can send (all five when it declared nothing).
 * - `state`: The last heartbeat's state text ('' when none).
 */
export const deviceRow = z.object({
  authCodeId: id, authCode: z.string(), machineCode: z.string(), machineName: z.string(), userName: z.string(), online: z.boolean(),
  lastSeenStr: time, activatedAtStr: time, sentToday: count, leased: count, battery: z.number().nullable(), signal: z.number().nullable(),
  appVersion: z.string(), dueNum: count, dueDateStr: time,
  capabilities: capabilityList, state: z.string().describe('最近一次心跳的状态说明'),
});
export const deviceDeliveryResult = z.object({
  delivered: count.describe('本次记为送达'), undelivered: count.describe('本次记为未送达'),
  ignored: count.describe('重复、已有结果、未发送或非本设备发送的号码，忽略'),
});

export const syncSaved = { authCode: savedId('id'), task: savedId('taskId'), taskUser: savedId('userId') };

// replies (回复记录, POST /device/v1/replies)
export const deviceRepliesResult = z.object({
  accepted: count.describe('本次新记录的回复'), duplicates: count.describe('已记录过（同一设备、同一 messageId），忽略'),
  unsubscribed: count.describe('本次新记录的回复中退订的（号码已在公司黑名单中）'),
});
/**
 * - `receivedAt`: 'YYYY-MM-DD HH:mm:ss' Asia/Shanghai: when the phone received it.
 * - `userName`: The device owner's account.
 * - `taskId`: The last task the device sent the number to (its batches of the last 30 days); null: none found.
 */
export const replyRow = z.object({
  id, receivedAt: time, phone: z.string(), content: z.string(), machineCode: z.string(), machineName: z.string(), userName: z.string(),
  taskId: id.nullable().describe('该设备最近 30 天内最后一次向此号码发送的任务；没有时为 null'), taskName: z.string(), unsubscribed: z.boolean(),
});
