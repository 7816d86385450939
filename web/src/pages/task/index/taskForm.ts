// The task form's data: the values a new task starts with, a task as form values, the number fields
// and the batch rule (SPEC §4, §5, §9). No React here, so it is tested on its own.
import { messages, ShowType, TASK_QR_URL_DEFAULT, type Task } from '@huiyun/contract';

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
  };
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
