import type { ReactNode } from 'react';
import { Button, Space, type TableColumnType } from 'antd';
import { messages } from '@huiyun/contract';
import type { ListColumn, RowAction } from './types.ts';

type Options<Row> = {
  columns: ListColumn<Row>[];
  sortField: string;
  sortOrder: 'ascend' | 'descend' | '';
  actions: RowAction<Row>[];
  onAction: (action: RowAction<Row>, row: Row) => void;
};

/** antd columns: server-side sort state on sortable columns, plus the 操作 column. */
export function buildColumns<Row extends object>({ columns, sortField, sortOrder, actions, onAction }: Options<Row>) {
  const result: TableColumnType<Row>[] = columns.map(({ sortable, ...column }) => ({
    dataIndex: column.key,
    ellipsis: true,
    ...column,
    sorter: sortable ? true : undefined,
    sortOrder: sortable ? (sortField === column.key && sortOrder ? sortOrder : null) : undefined,
  }));
  if (actions.length > 0) {
    result.push({
      key: '__actions',
      title: messages.common.actions,
      fixed: 'right',
      width: Math.max(100, actions.length * 64),
      render: (_value, row): ReactNode => (
        <Space size={4}>
          {actions
            .filter((action) => action.visible?.(row) ?? true)
            .map((action) => (
              <Button key={action.key} type="link" size="small" danger={action.danger} onClick={() => onAction(action, row)}>
                {action.label}
              </Button>
            ))}
        </Space>
      ),
    });
  }
  return result;
}
