import { useEffect, useState, type Key } from 'react';
import { type TablePaginationConfig } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { LIST_COUNT_BOUND, messages } from '@huiyun/contract';
import { queryKeys } from '../../api/queryKeys.ts';
import { useConfirm } from '../useConfirm.ts';
import { useEditDialog } from '../useEditDialog.ts';
import { useServerAction } from '../../shared/useServerAction.ts';
import type { ListContext, ListPageProps, ListParams, RowAction, SortOrder } from './types.ts';
import { useToast } from '../../shared/toast.tsx';

type Paging = { page: number; limit: number; sortField: string; sortOrder: SortOrder | ''; after?: string };
type Filters = Record<string, unknown>;

/** All state and logic of a list page: paging, sort, filters, selection, dialog, delete and row actions. */
export function useListPage<Row extends object, F extends object>(props: ListPageProps<Row, F>) {
  const { queryKey, rowKey, fetcher, defaultPageSize = 10, remove, exporter } = props;
  const message = useToast();
  const confirm = useConfirm();

  const [paging, setPaging] = useState<Paging>({ page: 1, limit: defaultPageSize, sortField: '', sortOrder: '' });
  const [filters, setFilters] = useState<Filters>({});
  const [selected, setSelected] = useState<{ keys: Key[]; rows: Row[] }>({ keys: [], rows: [] });
  const dialog = useEditDialog<Row>();

  const params = { ...filters, ...paging } as ListParams<F>;
  const query = useQuery({
    queryKey: queryKeys.list(queryKey, params),
    queryFn: () => fetcher(params),
    placeholderData: keepPreviousData,
    refetchInterval: props.refreshInterval ? (q) => props.refreshInterval!(q.state.data?.data ?? []) : undefined,
  });

  // A delete can empty the last page: step back to the page that now is the last.
  const rows = query.data?.data ?? [];
  const total = query.data?.total ?? 0;
  // The answer's flag (requestPage passes it on); a fetcher that drops it still reads a total past LIST_COUNT_BOUND as bounded.
  const totalBounded = query.data?.totalBounded === true || total > LIST_COUNT_BOUND;
  useEffect(() => {
    if (!query.isPlaceholderData && rows.length === 0 && total > 0 && paging.page > 1) {
      setPaging((p) => ({ ...p, page: Math.max(1, Math.ceil(total / p.limit)), after: undefined }));
    }
  }, [rows.length, total, paging.page, query.isPlaceholderData]);

  const clearSelection = () => setSelected({ keys: [], rows: [] });

  const search = (values: Filters) => {
    setFilters(values);
    setPaging((p) => ({ ...p, page: 1, after: undefined }));
    clearSelection();
  };

  const changeTable = (
    pagination: TablePaginationConfig,
    sorter: { columnKey?: Key; order?: SortOrder | null },
    action: 'paginate' | 'sort' | 'filter',
  ) => {
    if (action === 'sort') {
      const order = sorter.order ?? '';
      setPaging((p) => ({ ...p, page: 1, sortField: order ? String(sorter.columnKey ?? '') : '', sortOrder: order, after: undefined }));
    } else if (action === 'paginate') {
      const page = pagination.current ?? 1;
      const limit = pagination.pageSize ?? paging.limit;
      // One page forward from the page on screen: the server starts from its last row (keyset), not by walking every row before.
      const after = page === paging.page + 1 && limit === paging.limit && !query.isPlaceholderData ? query.data?.next : undefined;
      setPaging((p) => ({ ...p, page, limit, after }));
    }
  };

  const ctx: ListContext<Row> = {
    selectedRows: selected.rows,
    selectedKeys: selected.keys,
    refetch: () => void query.refetch(),
    openAdd: dialog.openAdd,
    openEdit: dialog.openEdit,
  };

  const removeAction = useServerAction(queryKey, (input: { keys: Key[]; rows: Row[] }) =>
    remove ? remove.run(input.keys, input.rows) : Promise.resolve(''),
  );
  const askRemove = (keys: Key[], rows: Row[]) => {
    if (!remove) return;
    if (keys.length === 0) {
      void message.warning(messages.common.selectRowsFirst);
      return;
    }
    confirm({
      content: remove.confirmText ?? messages.common.confirmDelete,
      cancelledText: remove.cancelledText ?? messages.common.cancelledDelete,
      danger: true,
      onOk: async () => {
        if (await removeAction.run({ keys, rows }, remove.failText)) {
          setSelected((s) => ({
            keys: s.keys.filter((k) => !keys.includes(k)),
            rows: s.rows.filter((r) => !keys.includes(r[rowKey] as Key)),
          }));
        }
      },
    });
  };

  const rowAction = useServerAction(queryKey, (input: { action: RowAction<Row>; row: Row }) =>
    input.action.run ? input.action.run(input.row) : Promise.resolve(''),
  );
  const triggerRowAction = (action: RowAction<Row>, row: Row) => {
    const go = async () => {
      if (action.onClick) action.onClick(row, ctx);
      if (action.run) await rowAction.run({ action, row }, action.failText ?? messages.common.operationFailed);
    };
    if (!action.confirm) {
      void go();
      return;
    }
    confirm({
      content: typeof action.confirm === 'function' ? action.confirm(row) : action.confirm,
      cancelledText: action.cancelledText,
      danger: action.danger,
      onOk: go,
    });
  };

  // An export changes nothing listed: no reload.
  const exportRun = useServerAction(null, (filters: Omit<ListParams<F>, 'page' | 'limit'>) => exporter?.run(filters) ?? Promise.resolve());
  const exportList = async () => {
    if (!exporter) return;
    const { page: _page, limit: _limit, after: _after, ...rest } = params;
    await exportRun.run(rest as Omit<ListParams<F>, 'page' | 'limit'>, exporter.failText);
  };

  return {
    rows,
    total,
    /** The server's count stopped at a bound: total is the bound + 1 (共 1,000+ 条), pages go on as rows do. */
    totalBounded,
    filtered: Object.values(filters).some((value) => value !== undefined && value !== null && value !== ''),
    exporting: exportRun.pending,
    exportList,
    // A spinner for a first load or new paging/filters, not for background refreshes of the same page.
    loading: query.isPending || (query.isFetching && query.isPlaceholderData),
    paging,
    selected,
    setSelected,
    dialog,
    ctx,
    search,
    changeTable,
    askRemove,
    triggerRowAction,
  };
}
