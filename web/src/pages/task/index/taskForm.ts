// The task form's data: the values a new task starts with, a task as form values, the number fields
// and the batch rule (SPEC §4, §5, §9). No React here, so it is tested on its own.
import dayjs, { type Dayjs } from 'dayjs';
import { canSendShowType, messages, SEND_WINDOW_DEFAULT, ShowType, TASK_QR_URL_DEFAULT, type Task, type UserDevice } from '@huiyun/contract';

const m = messages.task;

/** SPEC §9: the values a new task starts with. */
export const taskDefaults = {
  showType: ShowType.text,
  singleSendNumDay: 300,
  batchSendNum: 10,
  batchSendMaxNum: 10,
  intervalSeconds: 1,
  clearNum: 0,
  isRandomNum: 0,
  randomPosition: 0,
  qrUrl: TASK_QR_URL_DEFAULT,
  machineCodeList: [] as string[],
  content: '',
  fileNo: '',
  fileName: '',
  imgUrl: '',
  // A new task sends 08:00–21:00 Beijing time unless the operator changes it (an API client that sends no
  // window gets none).
  sendStartTime: SEND_WINDOW_DEFAULT.start as string,
  sendEndTime: SEND_WINDOW_DEFAULT.end as string,
};

export type TaskFormValues = Omit<typeof taskDefaults, 'showType'> & { showType: number; taskName?: string };

export function toFormValues(task: Task): TaskFormValues {
  return {
    taskName: task.taskName,
    showType: task.showType,
    content: task.content,
    imgUrl: task.imgUrl,
    fileNo: task.fileNo,
    fileName: task.fileName,
    qrUrl: task.qrUrl || TASK_QR_URL_DEFAULT,
    singleSendNumDay: task.singleSendNumDay,
    batchSendNum: task.batchSendNum,
    batchSendMaxNum: task.batchSendMaxNum,
    intervalSeconds: task.intervalSeconds,
    clearNum: task.clearNum,
    isRandomNum: task.isRandomNum,
    randomPosition: task.randomPosition,
    machineCodeList: task.machineCodeList,
    sendStartTime: task.sendStartTime,
    sendEndTime: task.sendEndTime,
  };
}

/** "HH:mm" as the time picker's value (today's date, unused), '' as none. */
export const timeToPicker = (hhmm: unknown): Dayjs | null => {
  if (typeof hhmm !== 'string' || !/^\d{2}:\d{2}$/.test(hhmm)) return null;
  const [h, m] = hhmm.split(':').map(Number);
  return dayjs().hour(h).minute(m).second(0).millisecond(0);
};

/** The time picker's value as the form keeps it: "HH:mm", or '' when cleared. */
export const pickerToTime = (value: Dayjs | null | undefined): string => (value ? value.format('HH:mm') : '');

/** 发送时段: both times or neither, and not the same time (checked again by the server). */
export const sendWindowRule = ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
  validator: async (_rule: unknown, end: unknown) => {
    const start = String(getFieldValue('sendStartTime') ?? '');
    const until = String(end ?? '');
    if ((start === '') !== (until === '')) throw new Error(m.sendWindowIncomplete);
    if (start !== '' && start === until) throw new Error(m.sendWindowEmpty);
  },
});

/** Whether to warn that none of the chosen devices can send the task's type (nothing chosen: no warning). */
export function noChosenDeviceCanSend(devices: UserDevice[], chosen: string[] | undefined, showType: number): boolean {
  const picked = devices.filter((d) => chosen?.includes(d.machineCode));
  return picked.length > 0 && !picked.some((d) => canSendShowType(d.capabilities, showType));
}

/** The sending numbers, each with its text when left empty. */
export const numberFields = [
  { name: 'singleSendNumDay', label: m.singleSendNumDay, invalid: m.singleSendNumDayInvalid },
  { name: 'intervalSeconds', label: m.intervalSeconds, invalid: m.intervalSecondsInvalid },
  { name: 'batchSendNum', label: m.batchSendNum, invalid: m.batchSendNumInvalid },
  { name: 'batchSendMaxNum', label: m.batchSendMaxNum, invalid: m.batchSendMaxNumInvalid },
  { name: 'clearNum', label: m.clearNum, invalid: m.clearNumInvalid },
] as const;

/** SPEC §5: the batch minimum may not exceed the maximum, checked here and again by the server. */
export const batchRule = ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
  validator: async (_rule: unknown, value: unknown) => {
    const min = Number(getFieldValue('batchSendNum'));
    if (value != null && Number.isFinite(min) && Number(value) < min) throw new Error(m.batchMinAboveMax);
  },
});

/** What 保存 sends: the form plus what the form does not edit (the test number has its own dialog). */
export function toSaveInput(values: Record<string, unknown>, editing: Task | null) {
  return {
    ...values,
    taskId: editing?.taskId,
    testNum: editing?.testNum ?? 0,
    testPhone: editing?.testPhone ?? '',
  };
}
