import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { pagerItemRender, selectionNames } from './accessibleNames.ts';

describe('accessible names of a list', () => {
  it('names the selection checkboxes in Chinese, by the row\'s place on the page', () => {
    const rows = [{ id: 7 }, { id: 9 }];
    const names = selectionNames(rows);
    expect(names.getTitleCheckboxProps?.()).toEqual({ 'aria-label': '全选' });
    expect(names.getCheckboxProps?.(rows[1]!)).toEqual({ 'aria-label': '选择第 2 行' });
  });

  it('names the pager\'s arrows, leaves page numbers alone', () => {
    const arrow = createElement('button', { type: 'button' });
    expect(renderToStaticMarkup(pagerItemRender(1, 'prev', arrow) as never)).toContain('aria-label="上一页"');
    expect(renderToStaticMarkup(pagerItemRender(3, 'jump-next', arrow) as never)).toContain('aria-label="向后 5 页"');
    const page = createElement('a', null, '2');
    expect(pagerItemRender(2, 'page', page)).toBe(page);
  });
});
