import { cloneElement, isValidElement, type ReactNode } from 'react';
import type { PaginationProps, TableProps } from 'antd';
import { fill, messages } from '@huiyun/contract';

// Names antd hard-codes in English whatever the locale: the selection checkboxes
// ('Select all', 'Select row 1') and the pager's arrow buttons (named by their icons, 'left' / 'right').
// The props antd offers to name them are set here once, for every list.

/** The table's checkboxes: 全选 and 选择第 n 行 (n counts the rows shown, from 1). */
export function selectionNames<Row>(rows: readonly Row[]): Pick<NonNullable<TableProps<Row>['rowSelection']>, 'getTitleCheckboxProps' | 'getCheckboxProps'> {
  return {
    getTitleCheckboxProps: () => ({ 'aria-label': messages.common.selectAll }),
    getCheckboxProps: (row) => ({ 'aria-label': fill(messages.common.selectRow, { n: rows.indexOf(row) + 1 }) }),
  };
}

const pagerNames: Partial<Record<string, string>> = {
  prev: messages.common.pagePrev,
  next: messages.common.pageNext,
  'jump-prev': messages.common.pagePrev5,
  'jump-next': messages.common.pageNext5,
};

/** The pager's arrows named in Chinese; page numbers stay as antd draws them. */
export const pagerItemRender: NonNullable<PaginationProps['itemRender']> = (_page, type, element: ReactNode) => {
  const name = pagerNames[type];
  return name && isValidElement<{ 'aria-label'?: string }>(element) ? cloneElement(element, { 'aria-label': name }) : element;
};
