export { ListPage } from './ListPage.tsx';
export { useListPage } from './useListPage.ts';
export { zodRule, isRequired, firstIssue } from './zodRule.ts';
export type {
  EditConfig,
  FieldConfig,
  FieldOption,
  ListColumn,
  ListContext,
  ListPageProps,
  ListParams,
  ObjectSchemaLike,
  RemoveConfig,
  RowAction,
  SortOrder,
} from './types.ts';
