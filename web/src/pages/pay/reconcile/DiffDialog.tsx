import { lazy, Suspense, useState } from 'react';
import { Modal } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { fill, labelOf, messages, Perm, reconcileCategoryOptions, reconcileKindOptions, type ReconcileDiff, type ReconcileRun } from '@huiyun/contract';
import { queryKeys } from '../../../api/queryKeys.ts';
import { exportReconcileDiffs, listReconcileDiffs, type ReconcileDiffFilters } from '../../../api/reconcile.ts';
import { ListPage, type FieldConfig, type ListColumn, type RowAction } from '../../../components/ListPage/index.ts';
import { useOpenedOnce } from '../../../components/useOpenedOnce.ts';
import { CategoryTag, HandledTag } from './ReconcileTags.tsx';

const HandleDialog = lazy(() => import('./HandleDialog.tsx').then((d) => ({ default: d.HandleDialog })));

const m = messages.reconcile;
const all = { value: '', label: m.all };
const orEmpty = (text: string) => text || m.sideMissing;

const columns: ListColumn<ReconcileDiff>[] = [
  { key: 'category', title: m.category, width: 130, render: (_v, row) => <CategoryTag category={row.category} /> },
  { key: 'kind', title: m.kind, width: 70, render: (_v, row) => labelOf(reconcileKindOptions, row.kind) },
  { key: 'orderNo', title: m.orderNo, width: 200, render: (_v, row) => (row.refundNo ? `${row.orderNo} / ${row.refundNo}` : row.orderNo) },
  { key: 'platformAmount', title: m.platformDiffAmount, width: 90, align: 'right', render: (_v, row) => orEmpty(row.platformAmount) },
  { key: 'platformStatus', title: m.platformStatus, width: 100, render: (_v, row) => orEmpty(row.platformStatus) },
  { key: 'gatewayAmount', title: m.gatewayDiffAmount, width: 90, align: 'right', render: (_v, row) => orEmpty(row.gatewayAmount) },
  { key: 'gatewayStatus', title: m.gatewayStatus, width: 100, render: (_v, row) => orEmpty(row.gatewayStatus) },
  { key: 'gatewayTime', title: m.gatewayTime, width: 170, secondary: true },
  { key: 'handled', title: m.handled, width: 80, render: (_v, row) => <HandledTag handled={row.handled} /> },
  { key: 'handleNote', title: m.handleNote, ellipsis: { showTitle: true } },
];

const searchFields: FieldConfig[] = [
  { name: 'category', label: m.category, type: 'select', options: [all, ...reconcileCategoryOptions] },
  { name: 'handled', label: m.handled, type: 'select', options: [all, { value: '0', label: m.handledNo }, { value: '1', label: m.handledYes }] },
];

/** A run's differences with both sides: filter, export, 标记处理. */
export function DiffDialog({ run, onClose }: { run: ReconcileRun | null; onClose: () => void }) {
  const [handling, setHandling] = useState<ReconcileDiff | null>(null);
  const handleOpened = useOpenedOnce(handling !== null);
  const [shown, setShown] = useState(run);
  if (run && run !== shown) setShown(run);
  const runId = shown?.runId ?? 0;
  // the list's key holds its filters, not the run: the pages of one run are dropped when its dialog closes
  const queryClient = useQueryClient();
  const close = () => {
    queryClient.removeQueries({ queryKey: queryKeys.all('reconcileDiff') });
    onClose();
  };
  const rowActions: RowAction<ReconcileDiff>[] = [{ key: 'handle', label: m.handle, permission: Perm.reconcileHandle, onClick: (row) => setHandling(row) }];
  return (
    <Modal open={run !== null} title={shown ? fill(m.differencesTitle, { day: shown.day, configName: shown.configName }) : ''} footer={null} onCancel={close} width={1200} destroyOnHidden>
      {shown && (
        <ListPage<ReconcileDiff, ReconcileDiffFilters>
          queryKey="reconcileDiff"
          rowKey="diffId"
          fetcher={(params) => listReconcileDiffs({ ...params, runId })}
          columns={columns}
          searchFields={searchFields}
          rowActions={rowActions}
          exporter={{ run: (params) => exportReconcileDiffs({ ...params, runId }), failText: messages.common.exportFailed }}
        />
      )}
      <Suspense fallback={null}>{handleOpened && <HandleDialog diff={handling} onClose={() => setHandling(null)} />}</Suspense>
    </Modal>
  );
}
