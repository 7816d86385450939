import { z } from 'zod';
import { isSendableNumber } from './carriers.ts';
import { RandomNum, RandomPosition, ShowType, TaskStatus } from './enums.ts';
import { idOf, optionalId, optionalText, pageCursor, pageNumber, pageSizeOf, typedText } from './fields.ts';
import { common, task as m } from './messages.ts';
import { TASK_PAGE_SIZE } from './envelope.ts';
import { SEND_TIME_PATTERN } from './sendWindow.ts';
import type * as syncAnswers from './responses/sync.ts';

// 任务列表 (SPEC §2.14, §3 Task, §4, §7.8): requests of /sync/queryTaskInfoList, saveTaskInfo,
// pauseStartTaskInfo, deleteTaskInfo, saveTest and generateQRCodeImage. Bodies may be JSON or forms,
// so every number also comes as a numeric string.

export const TASK_QR_URL_DEFAULT = 'http://';


/** What each showType shows and keeps on save (SPEC §4). */
export function showTypeFields(showType: number): { content: boolean; image: boolean } {
  switch (showType) {
    case ShowType.text:
      return { content: true, image: false };
    case ShowType.image:
      return { content: false, image: true };
    case ShowType.textImage:
    case ShowType.file:
      return { content: true, image: true };
    default:
      return { content: false, image: false };
  }
}

/** An integer in [min, max] from a number or a numeric string; absent / '' / null give the default. */
function intField(message: string, min: number, max: number, fallback?: number) {
  return z.preprocess(
    (v) => {
      if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return fallback;
      if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v.trim());
      return v;
    },
    z.number({ error: message }).int(message).min(min, message).max(max, message),
  );
}

/** http(s) with a host: what a QR code of a task may point to. */
export function isQrUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** machineCodeList as an array or a comma list; blanks dropped, duplicates merged. */
const machineCodeList = z.preprocess(
  (v) => {
    if (v === undefined || v === null || v === '') return [];
    if (typeof v === 'string') return v.split(',');
    return v;
  },
  z
    .array(typedText(m.machineCodeInvalid).trim().max(64, m.machineCodeInvalid), { error: m.machineCodeInvalid })
    .max(500, m.machineCodeInvalid)
    .transform((codes) => [...new Set(codes.filter(Boolean))]),
);

/** "HH:mm" or empty (absent, null, '' all mean no time). */
const sendTime = z.preprocess(
  (v) => (v == null ? '' : v),
  z.string({ error: m.sendTimeInvalid }).trim().refine((v) => v === '' || SEND_TIME_PATTERN.test(v), m.sendTimeInvalid),
);

export const taskListQuery = z.object({
  pageNum: pageNumber,
  pageSize: pageSizeOf(TASK_PAGE_SIZE),
  after: pageCursor,
  taskName: optionalText(100),
});
export type TaskListQuery = z.infer<typeof taskListQuery>;

export const taskSave = z
  .object({
    taskId: optionalId,
    taskName: typedText(m.taskNameRequired, { invalid: common.controlCharacters }).trim().min(1, m.taskNameRequired).max(100, m.taskNameTooLong),
    showType: intField(m.showTypeInvalid, ShowType.text, ShowType.schedule, ShowType.text),
    content: optionalText(4000, m.contentTooLong, { multiline: true }),
    imgUrl: optionalText(500, m.imgUrlInvalid),
    fileNo: optionalText(64, m.fileUnknown),
    fileName: optionalText(255, m.fileUnknown),
    qrUrl: optionalText(500, m.qrUrlInvalid).refine((v) => v === '' || v === TASK_QR_URL_DEFAULT || v === 'https://' || isQrUrl(v), m.qrUrlInvalid),
    singleSendNumDay: intField(m.singleSendNumDayInvalid, 1, 1_000_000, 300),
    batchSendNum: intField(m.batchSendNumInvalid, 1, 10_000, 10),
    batchSendMaxNum: intField(m.batchSendMaxNumInvalid, 1, 10_000, 10),
    intervalSeconds: intField(m.intervalSecondsInvalid, 0, 3600, 1),
    machineCodeList,
    testNum: intField(m.testNumFormInvalid, 0, 1_000_000, 0),
    testPhone: optionalText(20, m.testPhoneInvalid).refine((v) => v === '' || isSendableNumber(v), m.testPhoneInvalid),
    clearNum: intField(m.clearNumInvalid, 0, 1_000_000, 0),
    isRandomNum: intField(m.isRandomNumInvalid, RandomNum.no, RandomNum.yes, RandomNum.no),
    randomPosition: intField(m.randomPositionInvalid, RandomPosition.prefix, RandomPosition.suffix, RandomPosition.prefix),
    /** 发送时段 (sendWindow.ts); absent: no window, so machine-made tasks and older clients send at any hour. */
    sendStartTime: sendTime,
    sendEndTime: sendTime,
  })
  .refine((v) => v.batchSendNum <= v.batchSendMaxNum, { message: m.batchMinAboveMax, path: ['batchSendMaxNum'] })
  .refine((v) => (v.sendStartTime === '') === (v.sendEndTime === ''), { message: m.sendWindowIncomplete, path: ['sendEndTime'] })
  .refine((v) => v.sendStartTime === '' || v.sendStartTime !== v.sendEndTime, { message: m.sendWindowEmpty, path: ['sendEndTime'] });
export type TaskSave = z.infer<typeof taskSave>;

export const taskIdRequest = z.object({
  taskId: idOf(m.taskIdRequired),
});

export const taskStatusChange = taskIdRequest.extend({
  taskStatus: intField(m.statusInvalid, TaskStatus.running, TaskStatus.paused),
});
export type TaskStatusChange = z.infer<typeof taskStatusChange>;

export const taskTestSave = taskIdRequest.extend({
  testNum: intField(m.testNumInvalid, 1, 1_000_000),
  /** Absent keeps the task's test phone (the original client sent only {taskId, testNum}); one is needed in the end. */
  testPhone: optionalText(20, m.testPhoneInvalid).refine((v) => v === '' || isSendableNumber(v), m.testPhoneInvalid),
});
export type TaskTestSave = z.infer<typeof taskTestSave>;

export const taskQrRequest = z.object({
  qrUrl: typedText(m.qrUrlInvalid).trim().max(500, m.qrUrlInvalid).refine(isQrUrl, m.qrUrlInvalid),
});

export type Task = z.output<typeof syncAnswers.taskRow>;
