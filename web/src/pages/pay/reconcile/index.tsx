import { lazy, Suspense, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd';
import { messages, Perm, reconcileResultOptions, type ReconcileRun } from '@huiyun/contract';
import { exportReconcileRuns, listReconcileRuns, reconcileConfigOptions, type ReconcileRunFilters } from '../../../api/reconcile.ts';
import { queryKeys } from '../../../api/queryKeys.ts';
import { useManyCompanies } from '../../../components/useCompanyOptions.ts';
import { ListPage, type FieldConfig, type ListColumn, type RowAction } from '../../../components/ListPage/index.ts';
import { useOpenedOnce } from '../../../components/useOpenedOnce.ts';
import { ResultTag } from './ReconcileTags.tsx';

const DiffDialog = lazy(() => import('./DiffDialog.tsx').then((d) => ({ default: d.DiffDialog })));
const RunDialog = lazy(() => import('./RunDialog.tsx').then((d) => ({ default: d.RunDialog })));

const m = messages.reconcile;
const all = { value: '', label: m.all };

// At 1366 px the key columns fit; who ran it, when and the note are secondary.
const columns = (manyCompanies: boolean): ListColumn<ReconcileRun>[] => [
  { key: 'day', title: m.day, sortable: true, width: 110 },
  { key: 'configName', title: m.configName, width: 150 },
  ...(manyCompanies ? [{ key: 'deptName', title: m.deptName, width: 130, secondary: true }] : []),
  { key: 'platformCount', title: m.platformCount, width: 80, align: 'right' },
  { key: 'platformAmount', title: m.platformAmount, width: 100, align: 'right' },
  { key: 'gatewayCount', title: m.gatewayCount, width: 80, align: 'right' },
  { key: 'gatewayAmount', title: m.gatewayAmount, width: 100, align: 'right' },
  { key: 'diffCount', title: m.diffCount, width: 90, align: 'right', render: (_v, row) => (row.diffCount ? `${row.diffCount}（${m.unhandledCount} ${row.unhandledCount}）` : 0) },
  { key: 'result', title: m.result, width: 90, render: (_v, row) => <ResultTag result={row.result} /> },
  { key: 'message', title: m.message, secondary: true, ellipsis: { showTitle: true } },
  { key: 'runBy', title: m.runBy, width: 90, secondary: true },
  { key: 'finishTime', title: m.finishTime, width: 170, secondary: true },
];

/** 对账: one row per (day, 支付配置), its differences, and the 对账 of a chosen day. */
export function ReconcilePage() {
  const [viewed, setViewed] = useState<ReconcileRun | null>(null);
  const diffsOpened = useOpenedOnce(viewed !== null);
  const [running, setRunning] = useState(false);
  const runOpened = useOpenedOnce(running);
  const configs = useQuery({ queryKey: queryKeys.options('reconcile', 'configs'), queryFn: reconcileConfigOptions, staleTime: 60_000, meta: { silent: true } });
  const configOptions = useMemo(() => (configs.data ?? []).map((c) => ({ value: c.configId, label: c.name })), [configs.data]);
  // 对账's readers need not read /api/Dept/choices: its companies are those of the 支付配置 choices.
  const manyCompanies = useManyCompanies(new Set((configs.data ?? []).map((c) => c.deptName)).size);

  const searchFields: FieldConfig[] = [
    { name: 'configId', label: m.config, type: 'select', options: configOptions },
    { name: 'result', label: m.result, type: 'select', options: [all, ...reconcileResultOptions] },
    { name: 'dateRange', label: m.dateRange, type: 'dateRange', rangePlaceholder: [m.beginDate, m.endDate] },
  ];
  const rowActions: RowAction<ReconcileRun>[] = [{ key: 'diffs', label: m.differences, visible: (row) => row.diffCount > 0, onClick: (row) => setViewed(row) }];

  return (
    <>
      <ListPage<ReconcileRun, ReconcileRunFilters>
        queryKey="reconcile"
        rowKey="runId"
        fetcher={listReconcileRuns}
        columns={columns(manyCompanies)}
        searchFields={searchFields}
        rowActions={rowActions}
        exporter={{ run: exportReconcileRuns, failText: messages.common.exportFailed }}
        toolbar={[{ key: 'run', permission: Perm.reconcileRun, render: () => <Button type="primary" onClick={() => setRunning(true)}>{m.run}</Button> }]}
      />
      <Suspense fallback={null}>
        {diffsOpened && <DiffDialog run={viewed} onClose={() => setViewed(null)} />}
        {runOpened && <RunDialog open={running} configs={configs.data ?? []} onClose={() => setRunning(false)} />}
      </Suspense>
    </>
  );
}
