export { ListPage } from './ListPage.tsx';
export { useListPage } from './useListPage.ts';
export type {
  Access,
  EditConfig,
  EditDialogProps,
  FieldConfig,
  FieldOption,
  ListColumn,
  ListContext,
  ListPageProps,
  ListParams,
  RemoveConfig,
  RowAction,
  SortOrder,
  ToolbarEntry,
} from './types.ts';
