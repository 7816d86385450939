export { ListPage } from './ListPage.tsx';
export { useListPage } from './useListPage.ts';
export type {
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
} from './types.ts';
