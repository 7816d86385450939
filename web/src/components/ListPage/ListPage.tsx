import { lazy, Suspense, type Key } from 'react';
import { Grid, Table, type TablePaginationConfig } from 'antd';
import { Panel } from '../Panel.tsx';
import { listTotalText, messages, pageSizeOptions } from '@huiyun/contract';
import { useAllowed, usePermission } from '../../shared/useCurrentUser.ts';
import { useAllowedEntries } from '../useAllowedEntries.tsx';
import { SearchForm } from './SearchForm.tsx';
import { Toolbar } from './Toolbar.tsx';
import { buildColumns } from './columns.tsx';
import { minimumTableWidth } from './rowActions.ts';
import { useListPage } from './useListPage.ts';
import { pagerItemRender, selectionNames } from './accessibleNames.ts';
import type { ListPageProps, RowAction, SortOrder } from './types.ts';

// The dialog (antd Form, Modal and the contract's zod schemas) loads when first opened, not with the list.
const EditDialog = lazy(() => import('./EditDialog.tsx').then((m) => ({ default: m.EditDialog }))) as unknown as typeof import('./EditDialog.tsx').EditDialog;

/** The one list-page pattern: search form, toolbar, server-paged and -sorted table, add / edit dialog. */
export function ListPage<Row extends object, F extends object = Record<string, unknown>>(props: ListPageProps<Row, F>) {
  const { queryKey, rowKey, columns, searchFields, rowActions = [], toolbar = [], edit, remove, title } = props;
  const list = useListPage(props);
  const wide = Grid.useBreakpoint().xxl === true;

  // The one permission check of a list screen: 新增 / 编辑, 删除, 导出, each row action and toolbar button name their Access.
  const mayEdit = usePermission(edit ?? {});
  const mayRemove = usePermission(remove ?? {});
  const mayExport = usePermission(props.exporter ?? {});
  const canAdd = Boolean(edit && edit.canAdd !== false && mayEdit);
  const canEdit = Boolean(edit && edit.canEdit !== false && mayEdit);
  const canDelete = Boolean(remove && !remove.hidden && mayRemove);
  const toolbarButtons = useAllowedEntries(toolbar, list.ctx);
  const allowedRowActions = useAllowed(rowActions);
  const actions: RowAction<Row>[] = [
    ...(canEdit ? [{ key: 'edit', label: messages.common.edit, onClick: (row: Row) => list.ctx.openEdit(row) }] : []),
    ...allowedRowActions,
    ...(canDelete
      ? [{ key: 'delete', label: messages.common.delete, danger: true, onClick: (row: Row) => list.askRemove([row[rowKey] as Key], [row]) }]
      : []),
  ];
  const tableColumns = buildColumns({
    columns,
    sortField: list.paging.sortField,
    sortOrder: list.paging.sortOrder,
    actions,
    rows: list.rows,
    onAction: list.triggerRowAction,
    wide,
  });
  const selectable = props.selectable ?? canDelete;
  // Fits the panel from 1366 px on (the screens choose their columns for it); narrower windows scroll.
  const scrollX = minimumTableWidth(tableColumns.map((c) => c.width), selectable);

  const pagination: TablePaginationConfig = {
    current: list.paging.page,
    pageSize: list.paging.limit,
    total: list.total,
    showSizeChanger: true,
    showQuickJumper: true,
    pageSizeOptions,
    showTotal: (total) => listTotalText(total, list.totalBounded),
    itemRender: pagerItemRender,
  };

  return (
    <Panel title={title}>
      {searchFields && searchFields.length > 0 && (
        <div style={{ marginBottom: 16 }}>
          <SearchForm name={`${queryKey}-search`} fields={searchFields} onSearch={list.search} />
        </div>
      )}
      <Toolbar
        onAdd={canAdd ? list.ctx.openAdd : undefined}
        onDelete={canDelete ? () => list.askRemove(list.selected.keys, list.selected.rows) : undefined}
        deleteDisabled={list.selected.keys.length === 0}
        onExport={props.exporter && mayExport ? list.exportList : undefined}
        exporting={list.exporting}
        extra={toolbarButtons}
      />
      <Table<Row>
        rowKey={rowKey}
        columns={tableColumns}
        dataSource={list.rows}
        loading={list.loading}
        pagination={pagination}
        locale={props.emptyState && !list.filtered ? { emptyText: typeof props.emptyState === 'function' ? props.emptyState(list.ctx) : props.emptyState } : undefined}
        scroll={{ x: scrollX }}
        rowSelection={
          selectable
            ? { selectedRowKeys: list.selected.keys, onChange: (keys, rows) => list.setSelected({ keys, rows }), ...selectionNames(list.rows) }
            : undefined
        }
        onChange={(pager, _filters, sorter, extra) => {
          const one = Array.isArray(sorter) ? sorter[0] : sorter;
          list.changeTable(pager, { columnKey: one?.columnKey, order: (one?.order ?? null) as SortOrder | null }, extra.action);
        }}
      />
      {edit && list.dialog.opened && 'dialog' in edit && (
        <Suspense>
          <edit.dialog open={list.dialog.open} editing={list.dialog.editing} onClose={list.dialog.close} />
        </Suspense>
      )}
      {edit && list.dialog.opened && !('dialog' in edit) && (
        <Suspense>
          <EditDialog
            name={`${queryKey}-edit`}
            queryKey={queryKey}
            config={edit}
            open={list.dialog.open}
            editing={list.dialog.editing}
            onClose={list.dialog.close}
          />
        </Suspense>
      )}
    </Panel>
  );
}
