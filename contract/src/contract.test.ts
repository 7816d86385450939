import { describe, expect, it } from 'vitest';
import { fill, formatDateTime, idList, listTotalText, LIST_COUNT_BOUND, SEARCH_COUNT_STEP, pageQuery, secondsToNextShanghaiDay, shanghaiDay, variableSave } from './index.ts';
import { common, variable } from './messages.ts';

describe('contract helpers', () => {
  it('formats times in Asia/Shanghai whatever the machine zone', () => {
    expect(formatDateTime(Date.UTC(2026, 0, 1, 16, 30, 5))).toBe('2026-01-02 00:30:05');
    expect(shanghaiDay(Date.UTC(2026, 0, 1, 15, 59, 59))).toBe('2026-01-01');
    expect(shanghaiDay(Date.UTC(2026, 0, 1, 16, 0, 0))).toBe('2026-01-02');
    expect(secondsToNextShanghaiDay(Date.UTC(2026, 0, 1, 15, 59, 0))).toBe(60);
    expect(secondsToNextShanghaiDay(Date.UTC(2026, 0, 1, 16, 0, 0))).toBe(86_400);
    expect(formatDateTime(null)).toBe('');
  });

  it('formats every instant as the Date does: day ends, years, before 1970 and past 9999', () => {
    const viaDate = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    const instants = [0, -1, -8 * 3_600_000, -8 * 3_600_000 - 1, Date.UTC(2026, 0, 1, 15, 59, 59, 999), Date.UTC(2026, 0, 1, 16), Date.UTC(2024, 1, 28, 16),
      Date.UTC(9999, 11, 31, 15, 59, 59), Date.UTC(9999, 11, 31, 16), 1.5];
    for (let i = 0; i < 20_000; i++) instants.push(Math.floor(Math.random() * 4_102_444_800_000)); // 1970–2100
    for (const ms of instants) expect(formatDateTime(ms), String(ms)).toBe(viaDate(ms));
    expect(() => formatDateTime(Number.NaN)).toThrow(RangeError); // as before: no silent garbage
  });

  it('fills placeholders', () => {
    expect(fill('用户{userName}强制下线成功！', { userName: 'tom' })).toBe('用户tom强制下线成功！');
  });

  it('reads id lists in every shape the original sent', () => {
    expect(idList.parse('1,2, 3')).toEqual([1, 2, 3]);
    expect(idList.parse([4, '5'])).toEqual([4, 5]);
    expect(idList.parse(6)).toEqual([6]);
    expect(idList.safeParse('').error?.issues[0].message).toBe(common.idsRequired);
    expect(idList.safeParse('1,x').error?.issues[0].message).toBe(common.badParameter);
  });

  it('defaults paging and ignores garbage', () => {
    expect(pageQuery.parse({})).toMatchObject({ page: 1, limit: 10, sortOrder: '' });
    expect(pageQuery.parse({ page: '3', limit: '40' })).toMatchObject({ page: 3, limit: 40 });
    expect(pageQuery.parse({ page: 'x', limit: 100000, sortOrder: 'sideways' })).toMatchObject({ page: 1, limit: 10, sortOrder: '' });
  });

  it('gives the variable form its messages', () => {
    expect(variableSave.safeParse({}).error?.issues.map((i) => i.message)).toEqual([
      variable.varLableRequired, variable.varNameRequired, variable.varValueRequired,
    ]);
  });
});

describe('listTotalText', () => {
  it('counts exactly up to the bound and says 10,000+ past it', () => {
    expect(listTotalText(0)).toBe('共 0 条');
    expect(listTotalText(LIST_COUNT_BOUND)).toBe('共 10000 条');
    expect(listTotalText(LIST_COUNT_BOUND + 1)).toBe('共 10,000+ 条');
  });
  it('says the bound of a bounded answer (a contains search counted in steps of SEARCH_COUNT_STEP)', () => {
    expect(listTotalText(SEARCH_COUNT_STEP + 1, true)).toBe('共 1,000+ 条');
    expect(listTotalText(2 * SEARCH_COUNT_STEP + 1, true)).toBe('共 2,000+ 条');
    expect(listTotalText(SEARCH_COUNT_STEP + 1, false)).toBe('共 1001 条'); // an exact 1,001 of an index-backed filter
    expect(listTotalText(LIST_COUNT_BOUND + 1, true)).toBe('共 10,000+ 条');
  });
});
