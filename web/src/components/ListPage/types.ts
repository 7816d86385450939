import type { ComponentType, Key, ReactNode } from 'react';
import type { TableColumnType as ColumnType } from 'antd';
import type { Page } from '@huiyun/contract';
import type { ListParams } from '../../api/types.ts';
import type { Entity } from '../../api/queryKeys.ts';
import type { ObjectSchemaLike } from '../FormDialog/zodRule.ts';
import type { Access } from '../../shared/useCurrentUser.ts';
import type { ToolbarEntry as Entry } from '../useAllowedEntries.tsx';

export type { ListParams, SortOrder } from '../../api/types.ts';
export type { Access } from '../../shared/useCurrentUser.ts';

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

/** A button of the screen's own in the toolbar, after 新增, 删除 and 导出; ListPage shows it to callers its Access lets in. */
export type ToolbarEntry<Row> = Entry<ListContext<Row>>;

/** A row action; ListPage shows it to callers its Access lets in (permission, account). */
export type RowAction<Row> = Access & {
  key: string;
  label: string;
  danger?: boolean;
  /** Whether this row offers the action (its state, not the caller: that is Access). */
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

/** What a screen's own add / edit dialog is given (EditConfig's `dialog`). */
export type EditDialogProps<Row> = { open: boolean; editing: Row | null; onClose: () => void };

/** Who may add and edit: ListPage shows 新增 and 编辑 only to callers its Access lets in. */
type EditAccess = Access & {
  /**
   * false: no 新增 button on this screen, or not for this caller beyond the Access (e.g. only the super
   * administrator adds). ctx.openAdd still opens the dialog (设备列表's empty state makes a code with it).
   */
  canAdd?: boolean;
  /**
   * false: ListPage adds no 编辑 row action: the rows are not edited, or the screen places its own among its
   * row actions, calling ctx.openEdit (任务列表).
   */
  canEdit?: boolean;
};

/**
 * The add / edit dialog of a list screen, one of two forms: fixed `fields` (ListPage's dialog builds the
 * form), or the screen's own `dialog` (fields that depend on the values, e.g. 支付配置's gateway; lazy, so
 * it loads when first opened). Either way ListPage adds 新增, the 编辑 row action and the permission check.
 */
export type EditConfig<Row> = EditAccess & (FieldsEdit<Row> | { dialog: ComponentType<EditDialogProps<Row>> });

export type FieldsEdit<Row> = {
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
};

/** 删除 shows only to callers its Access lets in. */
export type RemoveConfig<Row> = Access & {
  /** Deletes and answers the server's success text. */
  run: (keys: Key[], rows: Row[]) => Promise<string>;
  failText: string;
  confirmText?: string;
  cancelledText?: string;
  /** Hide the delete buttons for a reason other than the permission (the screen's mode). */
  hidden?: boolean;
};

/** 导出 shows only to callers its Access lets in. */
export type ExportConfig<F extends object> = Access & {
  run: (params: Omit<ListParams<F>, 'page' | 'limit'>) => Promise<void>;
  failText: string;
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
  /** The screen's own toolbar buttons, each with its Access. */
  toolbar?: ToolbarEntry<Row>[];
  edit?: EditConfig<Row>;
  remove?: RemoveConfig<Row>;
  /** Re-fetch the shown page in the background every N ms while this answers a number (e.g. while a task runs). */
  refreshInterval?: (rows: Row[]) => number | false;
  /** 导出: saves the list with the current filters and sort (no paging) as a file. */
  exporter?: ExportConfig<F>;
  /** Shown above the search form. */
  title?: ReactNode;
  /**
   * Shown in place of the table's 暂无数据 while no search filter is set: what to do to get a first row
   * (given the ListContext when it opens the add dialog).
   */
  emptyState?: ReactNode | ((ctx: ListContext<Row>) => ReactNode);
};
