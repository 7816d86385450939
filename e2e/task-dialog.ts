// The task dialog's 发送时段, shared by the specs that make a task through the console.
import type { Locator } from '@playwright/test';

export const SEND_WINDOW_START = '发送时段开始时间';
export const SEND_WINDOW_END = '发送时段结束时间';

/** The antd picker around a time input. */
const pickerOf = (input: Locator) => input.locator('xpath=ancestor::div[contains(concat(" ", normalize-space(@class), " "), " ant-picker ")][1]');

/** Clears both times of 发送时段: the task then sends at any hour (a journey must not depend on the real hour). */
export async function clearSendWindow(form: Locator): Promise<void> {
  for (const label of [SEND_WINDOW_START, SEND_WINDOW_END]) {
    const input = form.getByLabel(label);
    await input.hover();
    await pickerOf(input).locator('.ant-picker-clear').click();
  }
}

/** Types a time into one of the 发送时段 pickers and leaves it (Enter would submit the dialog's form). */
export async function typeSendTime(form: Locator, label: string, hhmm: string): Promise<void> {
  const input = form.getByLabel(label);
  await input.click();
  await input.fill(hhmm);
  await input.press('Tab');
}
