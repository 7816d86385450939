import type { MenuNode } from '@huiyun/contract';
import type { TestApp } from './harness.ts';

/** Every menu's URL in the tree, depth first (parents before their children). */
export const menuUrlsOf = (menus: MenuNode[]): string[] => menus.flatMap((n) => [n.moduleUrl, ...menuUrlsOf(n.children)]);

/** The URLs of the side menu a session sees (GET /sync/currentUser). */
export const sideMenuOf = async (t: TestApp, token: string): Promise<string[]> => menuUrlsOf((await t.call('GET', '/sync/currentUser', { token })).body.data.menus);
