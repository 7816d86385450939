import { describe, expect, it } from 'vitest';
import { messages, TASK_QR_URL_DEFAULT, type Task } from '@huiyun/contract';
import { batchRule, taskDefaults, toFormValues, toSaveInput } from './taskForm.ts';

const task = {
  taskId: 7,
  taskName: '双十一',
  showType: 2,
  content: '好',
  imgUrl: '/download/file?filePath=a.png',
  fileNo: 'f1',
  fileName: 'a.png',
  qrUrl: '',
  singleSendNumDay: 100,
  batchSendNum: 5,
  batchSendMaxNum: 8,
  intervalSeconds: 2,
  clearNum: 0,
  isRandomNum: 1,
  randomPosition: 0,
  machineCodeList: ['M1'],
  testNum: 50,
  testPhone: '13800000000',
} as unknown as Task;

const check = (min: unknown, max: unknown) =>
  batchRule({ getFieldValue: (name) => (name === 'batchSendNum' ? min : undefined) }).validator(null, max);

describe('the task form', () => {
  it('edits a task with the default QR link when it has none', () => {
    const values = toFormValues(task);
    expect(values.qrUrl).toBe(TASK_QR_URL_DEFAULT);
    expect(values.machineCodeList).toEqual(['M1']);
    expect(Object.keys(values).sort()).toEqual([...Object.keys(taskDefaults), 'taskName'].sort());
  });

  it('keeps the test number on save (it has its own dialog)', () => {
    expect(toSaveInput({ taskName: 'x' }, task)).toMatchObject({ taskName: 'x', taskId: 7, testNum: 50, testPhone: '13800000000' });
    expect(toSaveInput({ taskName: 'x' }, null)).toMatchObject({ taskId: undefined, testNum: 0, testPhone: '' });
  });

  it('refuses a batch maximum below the minimum', async () => {
    await expect(check(10, 5)).rejects.toThrow(messages.task.batchMinAboveMax);
    await expect(check(10, 10)).resolves.toBeUndefined();
    await expect(check(10, undefined)).resolves.toBeUndefined();
  });
});
