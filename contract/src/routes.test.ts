import { describe, expect, it } from 'vitest';
import { consoleRoutes, DEVICE_LIST_URL, menuUrlOf, subScreenRoutes } from './routes.ts';

describe('sub-screens', () => {
  it('open with the right of their parent, other screens with their own', () => {
    expect(menuUrlOf(DEVICE_LIST_URL)).toBe('/task/authcode');
    expect(menuUrlOf('/task/index')).toBe('/task/index');
  });

  it('hang under a menu screen of their own group and are no menu screen themselves', () => {
    for (const sub of subScreenRoutes) {
      const parent = consoleRoutes.find((r) => r.url === sub.parent);
      expect(parent?.group).toBe(sub.group);
      expect(consoleRoutes.some((r) => r.url === sub.url)).toBe(false);
    }
  });
});
