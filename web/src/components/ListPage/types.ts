import type { Key, ReactNode } from 'react';
import type { TableColumnType as ColumnType } from 'antd';
import type { Page } from '@huiyun/contract';
import type { ListParams } from '../../api/types.ts';
import type { Entity } from '../../api/queryKeys.ts';
import type { ObjectSchemaLike } from '../FormDialog/zodRule.ts';

export type { ListParams, SortOrder } from '../../api/types.ts';

export type FieldOption = { value: string | number; label: string };

/** One input of a search form or an edit dialog. */
export type FieldConfig = {
  name: string;
  label: string;
  /** 'dateRange': a day range; its value is ['YYYY-MM-DD', 'YYYY-MM-DD'] (or undefined when cleared). */
  type?: 'text' | 'password' | 'textarea' | 'select' | 'number' | 'dateRange';
  options?: FieldOption[];
  placeholder?: string;
  /** 'dateRange' only: the placeholders of its start and end inputs. */
  rangePlaceholder?: [string, string];
  /** Edit dialog only: shown but not editable when editing an existing row. */
  readOnlyOnEdit?: boolean;
};


export type ListColumn<Row> = Omit<ColumnType<Row>, 'sorter' | 'sortOrder' | 'key'> & {
  /** The row field shown; also the sortField sent to the fetcher. */
  key: string;
  sortable?: boolean;
  /**
   * Shown only on wide screens (≥ 1600 px, antd's xxl): a column an operator can do without at
   * 1366 px, so the key columns and 操作 fit without a horizontal scroll.
   */
  secondary?: boolean;
};

/** What toolbar and row-action callbacks may use. */
export type ListContext<Row> = {
  selectedRows: Row[];
  selectedKeys: Key[];
  refetch: () => void;
  openAdd: () => void;
  openEdit: (row: Row) => void;
};

export type RowAction<Row> = {
  key: string;
  label: string;
  danger?: boolean;
  visible?: (row: Row) => boolean;
  /** A plain action (open a dialog, navigate …). */
  onClick?: (row: Row, ctx: ListContext<Row>) => void;
  /** A server action; its answer (the server's success text) is shown, then the list reloads. */
  run?: (row: Row) => Promise<string>;
  /** Ask first; cancelling shows cancelledText (default 已取消). */
  confirm?: string | ((row: Row) => string);
  cancelledText?: string;
  failText?: string;
};

export type EditConfig<Row> = {
  /** '系统环境变量' → titles 新增系统环境变量 / 编辑系统环境变量. */
  entityName: string;
  fields: FieldConfig[];
  /**
   * Loads the contract's zod object schema (each field's antd rule comes from it) when the dialog first
   * opens, so a list screen's first load carries no zod. A module-level function (it is cached by identity):
   * `const loadSchema = () => import('@huiyun/contract').then((c) => c.deptSave);`
   */
  schema?: () => Promise<ObjectSchemaLike>;
  initialValues?: Record<string, unknown>;
  toFormValues?: (row: Row) => Record<string, unknown>;
  /** Saves and answers the server's success text. editing is null when adding. */
  save: (values: Record<string, unknown>, editing: Row | null) => Promise<string>;
  failText: string;
  canAdd?: boolean;
  canEdit?: boolean;
};

export type RemoveConfig<Row> = {
  /** Deletes and answers the server's success text. */
  run: (keys: Key[], rows: Row[]) => Promise<string>;
  failText: string;
  confirmText?: string;
  cancelledText?: string;
  /** Hide the delete buttons (e.g. the user lacks the permission). */
  hidden?: boolean;
};

export type ExportConfig<F extends object> = {
  run: (params: Omit<ListParams<F>, 'page' | 'limit'>) => Promise<void>;
  failText: string;
  hidden?: boolean;
};

export type ListPageProps<Row extends object, F extends object = Record<string, unknown>> = {
  /** The entity listed (api/queryKeys.ts): its list key, and what a save or delete here invalidates. */
  queryKey: Entity;
  rowKey: keyof Row & string;
  fetcher: (params: ListParams<F>) => Promise<Page<Row>>;
  /** The screen's load-failure text is the fetcher's business (client failText). */
  columns: ListColumn<Row>[];
  searchFields?: FieldConfig[];
  defaultPageSize?: number;
  /** Row checkboxes; on by default when remove is given. */
  selectable?: boolean;
  rowActions?: RowAction<Row>[];
  toolbarExtra?: (ctx: ListContext<Row>) => ReactNode;
  edit?: EditConfig<Row>;
  remove?: RemoveConfig<Row>;
  /** Re-fetch the shown page in the background every N ms while this answers a number (e.g. while a task runs). */
  refreshInterval?: (rows: Row[]) => number | false;
  /** 导出: saves the list with the current filters and sort (no paging) as a file. */
  exporter?: ExportConfig<F>;
  /** Shown above the search form. */
  title?: ReactNode;
  /** Shown in place of the table's 暂无数据 while no search filter is set: what to do to get a first row. */
  emptyState?: ReactNode;
};
