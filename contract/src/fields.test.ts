import { describe, expect, it } from 'vitest';
import { deviceReportRequest } from './device.ts';
import { deviceText, idOf, MAX_INT_COLUMN, optionalText, pageQuery, requiredText, typedText } from './fields.ts';
import { common } from './messages.ts';
import { taskIdRequest } from './task.ts';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe('contract field helpers', () => {
  it('bound ids to the integer columns, as numbers or numeric text', () => {
    const id = idOf('请选择');
    for (const ok of [1, '1', MAX_INT_COLUMN, String(MAX_INT_COLUMN)]) expect(id.safeParse(ok).success, String(ok)).toBe(true);
    for (const bad of [0, -1, MAX_INT_COLUMN + 1, String(MAX_INT_COLUMN + 1), '99999999999999999999', 1.5, 2 ** 53 + 2, 'a', [1], null, '']) {
      expect(firstMessage(id.safeParse(bad)), String(bad)).toBe('请选择');
    }
    expect(firstMessage(taskIdRequest.safeParse({ taskId: 2147483648 }))).toBeTruthy();
  });

  it('refuse control characters in typed text with the field message; multi-line fields keep line breaks', () => {
    const name = requiredText('请输入名称', 20);
    expect(firstMessage(name.safeParse('a\u0000b'))).toBe(common.controlCharacters);
    expect(firstMessage(name.safeParse('a\nb'))).toBe(common.controlCharacters);
    expect(name.safeParse(' 名称 ').data).toBe('名称');
    const notes = optionalText(100, common.badParameter, { multiline: true });
    expect(notes.safeParse('第一行\r\n第二行\t!').success).toBe(true);
    for (const c of ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085']) expect(notes.safeParse(`a${c}b`).success, JSON.stringify(c)).toBe(false);
    expect(firstMessage(typedText('格式错误').safeParse('x\u0000'))).toBe('格式错误');
  });

  it('clean a device free text instead of refusing it, so a report is never failed by one odd byte', () => {
    expect(deviceText(5).parse('ab\u0000c\u0007defgh')).toBe('abcde');
    const report = deviceReportRequest.parse({ batchId: 'b1', results: [{ id: 1, status: 'failed', reason: 'no\u0000 signal' }] });
    expect(report.results[0].reason).toBe('no signal');
  });

  it('read an out-of-range page as the first page', () => {
    expect(pageQuery.parse({ page: 2 ** 40, limit: 10 }).page).toBe(1);
  });
});
