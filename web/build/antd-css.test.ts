import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { partOf, splitAntdCss, topLevelRules } from './antd-css.ts';

describe('antd static CSS split', () => {
  it('splits top-level rules, keeping at-rules whole', () => {
    const css = '.a{x:1}@media (max-width:1px){.b{y:2}.c{z:3}}@keyframes k{0%{o:0}100%{o:1}}';
    expect(topLevelRules(css)).toEqual(['.a{x:1}', '@media (max-width:1px){.b{y:2}.c{z:3}}', '@keyframes k{0%{o:0}100%{o:1}}']);
  });

  it('keeps what the console renders, moves the picker to its chunk, drops what it never renders', () => {
    expect(partOf('.ant-btn-primary{color:red}')).toBe('base');
    expect(partOf('.ant-input-affix-wrapper{x:1}')).toBe('base');
    expect(partOf('.anticon{x:1}')).toBe('base');
    expect(partOf('.ant-table-wrapper .ant-table{x:1}')).toBe('console');
    expect(partOf('.ant-tree .ant-tree-node{x:1}')).toBe('console');
    expect(partOf('.ant-select-dropdown{x:1}')).toBe('console');
    expect(partOf('.ant-picker-dropdown{x:1}')).toBe('picker');
    expect(partOf('.ant-tree-select-dropdown{x:1}')).toBe('unused');
    expect(partOf('.ant-select-tree{x:1}')).toBe('unused');
    expect(partOf('.ant-cascader-menu .ant-checkbox{x:1}')).toBe('unused');
    expect(partOf('@media (max-width:575px){.ant-steps{x:1}}')).toBe('unused');
    expect(partOf('@keyframes antFadeIn{0%{opacity:0}}')).toBe('base');
    expect(partOf(':root{--ant-color-primary:#1677ff}')).toBe('base');
  });

  it('cuts antd.css to well under its size and loses no rule of a used component', () => {
    const css = fs.readFileSync(createRequire(import.meta.url).resolve('antd/dist/antd.css'), 'utf8');
    const parts = splitAntdCss(css);
    expect(parts.console.length).toBeLessThan(css.length * 0.7);
    for (const used of ['.ant-table', '.ant-modal', '.ant-menu', '.ant-form', '.ant-upload', '.ant-tree']) {
      expect(parts.console, used).toContain(`${used}{`);
    }
    for (const first of ['.ant-btn', '.ant-input', '.ant-checkbox', '.ant-message']) expect(parts.base, first).toContain(`${first}{`);
    expect(parts.picker).toContain('.ant-picker-range');
    expect(parts.console).not.toContain('.ant-cascader');
  });
});

describe('the cut keeps every component the console imports', () => {
  // antd's class name of a component, where it is not the kebab-case of its name.
  const classOf: Record<string, string> = { Button: 'btn', DatePicker: 'picker', Grid: 'row', Col: 'col', Row: 'row', App: 'app' };
  const kebab = (name: string) => name.replace(/[A-Z]/g, (c, i) => (i ? '-' : '') + c.toLowerCase());

  it('has no imported antd component in UNUSED (it would render unstyled)', () => {
    const root = new URL('../src/', import.meta.url);
    const files = fs.readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
    const imported = new Set<string>();
    for (const file of files) {
      const text = fs.readFileSync(new URL(file, root), 'utf8');
      for (const match of text.matchAll(/import \{([^}]+)\} from 'antd'/g)) {
        for (const part of match[1]!.split(',')) {
          const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!;
          if (/^[A-Z]/.test(name) && !part.trim().startsWith('type ')) imported.add(name);
        }
      }
    }
    expect(imported.size).toBeGreaterThan(20);
    const cut = [...imported].filter((name) => partOf(`.ant-${classOf[name] ?? kebab(name)}{x:1}`) === 'unused');
    expect(cut).toEqual([]);
  });
});
