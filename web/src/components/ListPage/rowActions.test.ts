import { describe, expect, it } from 'vitest';
import { actionsColumnWidth, minimumTableWidth, splitRowActions } from './rowActions.ts';

describe('splitRowActions', () => {
  it('shows up to three actions as links', () => {
    expect(splitRowActions(['编辑', '菜单权限', '删除'])).toEqual({ inline: ['编辑', '菜单权限', '删除'], more: [] });
  });

  it('keeps the first two and puts the rest under 更多 when a row has more than three', () => {
    expect(splitRowActions(['上传号码', '暂停', '插入测试号码', '编辑', '删除'])).toEqual({
      inline: ['上传号码', '暂停'],
      more: ['插入测试号码', '编辑', '删除'],
    });
  });
});

describe('actionsColumnWidth', () => {
  it('fits every link of a row with up to three', () => {
    expect(actionsColumnWidth([['编辑', '删除']], '更多', '操作')).toBe(2 * (28 + 14) + 4 + 32);
  });

  it('fits the widest row: its first two links and 更多', () => {
    const five = ['上传号码', '暂停', '插入测试号码', '编辑', '删除'];
    expect(actionsColumnWidth([['编辑', '删除'], five], '更多', '操作')).toBe((4 * 14 + 14) + (2 * 14 + 14) + (2 * 14 + 14 + 16) + 2 * 4 + 32);
  });

  it('leaves room for the title when no row shows an action', () => {
    expect(actionsColumnWidth([], '更多', '操作')).toBe(2 * 14 + 32);
    expect(actionsColumnWidth([[]], '更多', '操作')).toBe(2 * 14 + 32);
  });
});

describe('minimumTableWidth', () => {
  it('counts a column without a width at 120 px and the selection column at 32 px', () => {
    expect(minimumTableWidth([100, undefined, 200], true)).toBe(100 + 120 + 200 + 32);
    expect(minimumTableWidth([100], false)).toBe(100);
  });
});
