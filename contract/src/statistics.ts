import { z } from 'zod';
import { statistics as m } from './messages.ts';
import { optionalText, requiredId, typedText } from './fields.ts';
import { pageNumQuery } from './authcode.ts';
import type * as syncAnswers from './responses/sync.ts';

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

export type StatisticsTotals = z.output<typeof syncAnswers.statisticsTotals>;

export type TaskUserStatistics = z.output<typeof syncAnswers.taskUserStatisticsRow>;
