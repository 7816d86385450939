import { describe, expect, it } from 'vitest';
import { messages, TASK_QR_URL_DEFAULT, type Task } from '@huiyun/contract';
import { batchRule, noChosenDeviceCanSend, pickerToTime, sendWindowRule, taskDefaults, timeToPicker, toFormValues, toSaveInput } from './taskForm.ts';

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
  sendStartTime: '',
  sendEndTime: '',
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

  it('pre-fills 08:00–21:00 for a new task and keeps an edited task’s window, none included', () => {
    expect([taskDefaults.sendStartTime, taskDefaults.sendEndTime]).toEqual(['08:00', '21:00']);
    expect(toFormValues(task)).toMatchObject({ sendStartTime: '', sendEndTime: '' });
    expect(toFormValues({ ...task, sendStartTime: '22:00', sendEndTime: '06:00' })).toMatchObject({ sendStartTime: '22:00', sendEndTime: '06:00' });
  });

  it('turns the time picker value into HH:mm and back', () => {
    expect(pickerToTime(timeToPicker('07:05'))).toBe('07:05');
    expect(timeToPicker('')).toBeNull();
    expect(pickerToTime(null)).toBe('');
  });

  it('wants both times of the window or neither, and not the same', async () => {
    const window = (start: string, end: string) => sendWindowRule({ getFieldValue: () => start }).validator(null, end);
    await expect(window('08:00', '21:00')).resolves.toBeUndefined();
    await expect(window('22:00', '06:00')).resolves.toBeUndefined();
    await expect(window('', '')).resolves.toBeUndefined();
    await expect(window('08:00', '')).rejects.toThrow(messages.task.sendWindowIncomplete);
    await expect(window('08:00', '08:00')).rejects.toThrow(messages.task.sendWindowEmpty);
  });

  it('warns only when devices are chosen and none of them can send the type', () => {
    const devices = [
      { machineCode: 'P1', machineName: '短信手机', capabilities: ['text' as const] },
      { machineCode: 'S1', machineName: '模拟器', capabilities: ['text' as const, 'image' as const] },
    ];
    expect(noChosenDeviceCanSend(devices, ['P1'], 2)).toBe(true);
    expect(noChosenDeviceCanSend(devices, ['P1', 'S1'], 2)).toBe(false);
    expect(noChosenDeviceCanSend(devices, ['P1'], 1)).toBe(false);
    expect(noChosenDeviceCanSend(devices, [], 2)).toBe(false);
  });
});
