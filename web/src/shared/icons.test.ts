import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { consoleRoutes, menuGroups } from '@huiyun/contract';
import { hasIcon, MenuIcon, PlusOutlined } from './icons.tsx';

/** Every source file of the console (path from web/src → text). */
const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.ts'], { query: '?raw', import: 'default', eager: true });

describe('menu icons', () => {
  it('maps every icon the contract routes name', () => {
    const names = [...consoleRoutes, ...menuGroups].map((r) => r.icon);
    expect(names.filter((name) => !hasIcon(name))).toEqual([]);
  });
});

describe('decorative icons', () => {
  it('hide themselves from assistive technology: no English name read before a button label', () => {
    for (const html of [renderToStaticMarkup(createElement(PlusOutlined)), renderToStaticMarkup(createElement(MenuIcon, { name: 'UserOutlined' }))]) {
      expect(html).toContain('aria-hidden="true"');
      expect(html).not.toContain('aria-label');
    }
  });

  it('come from shared/icons.tsx only (the login page and the entry mark their few icons themselves, to stay small)', () => {
    const allowed = new Set(['shared/icons.tsx', 'app/App.tsx', 'pages/login/index.tsx']);
    // Keys are relative to this folder (./x in shared/, ../y elsewhere): named from web/src here.
    const files = Object.entries(sources).map(([key, text]) => ({ file: key.replace(/^\.\.\//, '').replace(/^\.\//, 'shared/'), text }));
    expect(files.map((f) => f.file)).toContain('components/ListPage/Toolbar.tsx');
    const importers = files.filter((f) => f.text.includes("from '@ant-design/icons'")).map((f) => f.file);
    expect(importers.filter((file) => !allowed.has(file))).toEqual([]);
  });
});
