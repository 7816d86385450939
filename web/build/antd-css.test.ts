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
    expect(partOf('.ant-btn-primary{color:red}')).toBe('console');
    expect(partOf('.ant-table-wrapper .ant-table{x:1}')).toBe('console');
    expect(partOf('.ant-tree .ant-tree-node{x:1}')).toBe('console');
    expect(partOf('.ant-select-dropdown{x:1}')).toBe('console');
    expect(partOf('.ant-picker-dropdown{x:1}')).toBe('picker');
    expect(partOf('.ant-tree-select-dropdown{x:1}')).toBe('unused');
    expect(partOf('.ant-select-tree{x:1}')).toBe('unused');
    expect(partOf('.ant-cascader-menu .ant-checkbox{x:1}')).toBe('unused');
    expect(partOf('@media (max-width:575px){.ant-steps{x:1}}')).toBe('unused');
    expect(partOf('@keyframes antFadeIn{0%{opacity:0}}')).toBe('console');
    expect(partOf(':root{--ant-color-primary:#1677ff}')).toBe('console');
  });

  it('cuts antd.css to well under its size and loses no rule of a used component', () => {
    const css = fs.readFileSync(createRequire(import.meta.url).resolve('antd/dist/antd.css'), 'utf8');
    const parts = splitAntdCss(css);
    expect(parts.console.length).toBeLessThan(css.length * 0.7);
    for (const used of ['.ant-btn', '.ant-table', '.ant-modal', '.ant-menu', '.ant-form', '.ant-message', '.ant-upload', '.ant-tree']) {
      expect(parts.console, used).toContain(`${used}{`);
    }
    expect(parts.picker).toContain('.ant-picker-range');
    expect(parts.console).not.toContain('.ant-cascader');
  });
});
