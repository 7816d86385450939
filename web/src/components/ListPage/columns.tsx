import type { ReactNode } from 'react';
import { Button, Dropdown, Space, type TableColumnType } from 'antd';
import { DownOutlined } from '../../shared/icons.tsx';
import { messages } from '@huiyun/contract';
import { actionsColumnWidth, splitRowActions } from './rowActions.ts';
import type { ListColumn, RowAction } from './types.ts';

type Options<Row> = {
  columns: ListColumn<Row>[];
  sortField: string;
  sortOrder: 'ascend' | 'descend' | '';
  actions: RowAction<Row>[];
  /** The rows shown: the 操作 column is as wide as the widest of their cells. */
  rows: Row[];
  onAction: (action: RowAction<Row>, row: Row) => void;
  /** The screen is wide (≥ 1600 px): the secondary columns show too. */
  wide: boolean;
};

/** antd columns: server-side sort state on sortable columns, the secondary ones only on wide screens, plus 操作. */
export function buildColumns<Row extends object>({ columns, sortField, sortOrder, actions, rows, onAction, wide }: Options<Row>) {
  const visibleActions = (row: Row) => actions.filter((action) => action.visible?.(row) ?? true);
  const result: TableColumnType<Row>[] = columns
    .filter((column) => wide || !column.secondary)
    .map(({ sortable, secondary: _secondary, ...column }) => ({
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
      width: actionsColumnWidth(rows.map((row) => visibleActions(row).map((a) => a.label)), messages.common.moreActions, messages.common.actions),
      render: (_value, row): ReactNode => <RowActions row={row} actions={visibleActions(row)} onAction={onAction} />,
    });
  }
  return result;
}

type RowActionsProps<Row> = { row: Row; actions: RowAction<Row>[]; onAction: (action: RowAction<Row>, row: Row) => void };

/** A row's actions: up to three links, or the first two and a 更多 dropdown with the rest. */
function RowActions<Row>({ row, actions, onAction }: RowActionsProps<Row>) {
  const { inline, more } = splitRowActions(actions);
  return (
    <Space size={4}>
      {inline.map((action) => (
        <Button key={action.key} type="link" size="small" danger={action.danger} onClick={() => onAction(action, row)}>
          {action.label}
        </Button>
      ))}
      {more.length > 0 && (
        <Dropdown
          trigger={['click']}
          menu={{
            items: more.map((action) => ({ key: action.key, label: action.label, danger: action.danger })),
            onClick: ({ key }) => {
              const action = more.find((a) => a.key === key);
              if (action) onAction(action, row);
            },
          }}
        >
          <Button type="link" size="small" className="row-actions-more">
            {messages.common.moreActions}
            <DownOutlined />
          </Button>
        </Dropdown>
      )}
    </Space>
  );
}
