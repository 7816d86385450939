import { describe, expect, it } from 'vitest';
import { consoleRoutes, menuGroups } from '@huiyun/contract';
import { hasIcon } from './icons.tsx';

describe('menu icons', () => {
  it('maps every icon the contract routes name', () => {
    const names = [...consoleRoutes, ...menuGroups].map((r) => r.icon);
    expect(names.filter((name) => !hasIcon(name))).toEqual([]);
  });
});
