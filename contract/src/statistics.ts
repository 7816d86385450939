import { z } from 'zod';
import { statistics as m } from './messages.ts';
import { optionalText, requiredId, typedText } from './fields.ts';
import { pageNumQuery } from './authcode.ts';
import { AccountCode } from './enums.ts';

// 用户发送统计 (SPEC §2.16, §3 "Task user", "Statistics totals"): task accounts, their counters and
// the sub-accounts an administrator creates (ordinary users of its own company, PRODUCT §3).

export const TASK_USER_PASSWORD_MIN = 6;

export const taskUserSave = z.object({
  userName: typedText(m.userNameRequired, { invalid: m.userNameFormat })
    .trim()
    .min(1, m.userNameRequired)
    .max(64, m.userNameTooLong)
    .regex(/^[A-Za-z0-9_.@-]+$/, m.userNameFormat),
  passwd: z
    .string({ error: m.passwdRequired })
    .min(1, m.passwdRequired)
    .min(TASK_USER_PASSWORD_MIN, m.passwdTooShort)
    .max(64, m.passwdTooLong),
});
export type TaskUserSave = z.infer<typeof taskUserSave>;

export const taskUserIdRequest = z.object({ taskUserId: requiredId });

export const taskUserStatisticsQuery = pageNumQuery.extend({ userName: optionalText(64) });
export type TaskUserStatisticsQuery = z.infer<typeof taskUserStatisticsQuery>;

export type StatisticsTotals = {
  hisTotalCount: number;
  totalCount: number;
  todayCount: number;
  yesterdayCount: number;
  /** 今日送达: delivery reports counted today (Asia/Shanghai), whenever the messages were sent. */
  todayDeliveredCount: number;
};

export type TaskUserStatistics = {
  userId: number;
  userName: string;
  /** Sent in all, split 移动 smcount | 联通 sucount | 电信 stcount | 其他 socount. */
  totalSendNum: number;
  smcount: number;
  sucount: number;
  stcount: number;
  socount: number;
  /** 单次发送: sent since the last 清除单次. */
  sendNum: number;
  /** 送达: delivered (delivery reports) since the last 清除总数. */
  deliveredNum: number;
};

export const isAdministratorAccount = (user: { code: number } | undefined) => user?.code === AccountCode.administrator;
