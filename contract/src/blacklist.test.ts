import { describe, expect, it } from 'vitest';
import { blacklistAdd, blacklistDelete, blacklistKey, blacklistListQuery } from './blacklist.ts';
import { blacklist as m, common } from './messages.ts';

const issue = (result: { error?: { issues: { message: string }[] } }) => result.error?.issues[0].message;

describe('blacklist requests', () => {
  it('reads the keys of a delete in every shape', () => {
    const keys = [{ deptId: 3, phone: 13800138000 }, { deptId: 12, phone: 19900199000 }];
    expect(blacklistDelete.parse({ ids: '3:13800138000, 12:19900199000' }).ids).toEqual(keys);
    expect(blacklistDelete.parse({ ids: [blacklistKey(3, '13800138000'), blacklistKey(12, 19900199000)] }).ids).toEqual(keys);
    expect(blacklistDelete.parse({ ids: [{ deptId: 3, phone: '13800138000' }, { deptId: 12, phone: 19900199000 }] }).ids).toEqual(keys);
  });

  it('refuses a delete without keys or with a malformed one', () => {
    expect(issue(blacklistDelete.safeParse({}))).toBe(m.idsRequired);
    expect(issue(blacklistDelete.safeParse({ ids: '' }))).toBe(m.idsRequired);
    for (const ids of ['13800138000', '3:1380013800', '3:12800138000', '0:13800138000', 'x:13800138000', [{ deptId: 3 }], [42]]) {
      expect(issue(blacklistDelete.safeParse({ ids })), JSON.stringify(ids)).toBe(common.badParameter);
    }
  });

  it('searches by the digits typed', () => {
    expect(blacklistListQuery.parse({ phone: ' 138-0013 ' })).toMatchObject({ phone: '1380013', pageNum: 1, pageSize: 10 });
    expect(blacklistListQuery.parse({ phone: 13800138000, deptId: '2' })).toMatchObject({ phone: '13800138000', deptId: 2 });
    expect(blacklistListQuery.parse({})).toEqual({ pageNum: 1, pageSize: 10, phone: '' });
    expect(issue(blacklistListQuery.safeParse({ phone: '张三' }))).toBe(m.phoneSearchInvalid);
  });

  it('needs some text to add', () => {
    expect(issue(blacklistAdd.safeParse({}))).toBe(m.phonesRequired);
    expect(issue(blacklistAdd.safeParse({ phones: '  ' }))).toBe(m.phonesRequired);
    expect(issue(blacklistAdd.safeParse({ phones: '1'.repeat(200_001) }))).toMatch(/^一次最多输入200000个字符/);
    expect(blacklistAdd.parse({ phones: '13800138000\n', deptId: '' })).toEqual({ phones: '13800138000', deptId: undefined });
  });
});
