import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { consoleRoutes, menuGroups } from '@huiyun/contract';
import { hasIcon, MenuIcon, PlusOutlined } from './icons.tsx';

const webSrc = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [full] : [];
  });
}

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

  it('come from app/icons.tsx only (the login page and the entry mark their few icons themselves, to stay small)', () => {
    const allowed = new Set(['app/icons.tsx', 'app/App.tsx', 'pages/login/index.tsx']);
    const importers = sourceFiles(webSrc)
      .filter((file) => readFileSync(file, 'utf8').includes("from '@ant-design/icons'"))
      .map((file) => path.relative(webSrc, file).split(path.sep).join('/'));
    expect(importers.filter((file) => !allowed.has(file))).toEqual([]);
  });
});
