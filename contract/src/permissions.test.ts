import { describe, expect, it } from 'vitest';
import { actionLabel, listCodeOf, permissionScreens, permissionTable, screenOfCode, type PermissionCode } from './permissions.ts';
import { consoleRoutes } from './routes.ts';

const codes = Object.keys(permissionTable) as PermissionCode[];
const screenUrls = new Set(consoleRoutes.map((r) => r.url));

describe('the screen of each permission code', () => {
  it('is exactly one screen of consoleRoutes for every code', () => {
    for (const code of codes) expect(screenUrls.has(screenOfCode(code) ?? ''), code).toBe(true);
    for (const url of Object.values(permissionScreens)) expect(screenUrls.has(url), url).toBe(true);
  });

  it('names the screen in the code\'s name (the part before -)', () => {
    // 发送统计-新增账号 is on 用户发送统计, 授权码-新增 on 授权码列表: the name is the screen's or a part of it.
    for (const code of codes) {
      const screen = consoleRoutes.find((r) => r.url === screenOfCode(code))!;
      const prefix = permissionTable[code].name.split('-')[0];
      expect(screen.name.includes(prefix) || prefix.includes(screen.name), `${code} ${screen.name}`).toBe(true);
    }
  });

  it('gives every screen with codes one 查询 code of its own', () => {
    for (const url of new Set(Object.values(permissionScreens))) {
      const list = listCodeOf(url);
      expect(list, url).toBeDefined();
      expect(screenOfCode(list!)).toBe(url);
      expect(actionLabel(permissionTable[list!].name)).toBe('查询');
    }
    expect(listCodeOf('/task/updatePasswd')).toBeUndefined();
  });

  it('places a code added in 权限管理 by its area, and one of no known area nowhere', () => {
    expect(screenOfCode('task:Blacklist:import')).toBe('/task/blacklist');
    expect(screenOfCode('e2e:Thing:list')).toBeUndefined();
    expect(screenOfCode('task')).toBeUndefined();
    expect(screenOfCode('toString:x:y')).toBeUndefined();
  });

  it('labels an action by the part of its name after -', () => {
    expect(actionLabel('任务列表-暂停/启动')).toBe('暂停/启动');
    expect(actionLabel('自定义')).toBe('自定义');
  });
});
