import { logResultOptions, messages, operLogModuleOptions, type OperLog } from '@huiyun/contract';
import { exportOperLogs, listOperLogs, type OperLogFilters } from '../../../api/monitor.ts';
import { ListPage, type ListColumn } from '../../../components/ListPage/index.ts';
import { ResultTag } from '../ResultTag.tsx';

const m = messages.monitor;

// At 1366 px: who did what to which target, from where, the result and when; id, request and
// duration from 1600 px.
const columns: ListColumn<OperLog>[] = [
  { key: 'operId', title: m.operId, width: 90, secondary: true },
  { key: 'userName', title: m.userName, sortable: true, width: 100 },
  { key: 'module', title: m.module, sortable: true, width: 100 },
  { key: 'action', title: m.action, sortable: true, width: 110 },
  { key: 'target', title: m.target, width: 160 },
  { key: 'method', title: m.method, width: 90, secondary: true },
  { key: 'url', title: m.url, width: 220, secondary: true },
  { key: 'ip', title: m.ip },
  { key: 'success', title: m.result, width: 70, render: (value: OperLog['success']) => <ResultTag value={value} /> },
  { key: 'message', title: m.message, width: 180 },
  { key: 'costMs', title: m.costMs, sortable: true, width: 110, secondary: true },
  { key: 'operTime', title: m.operTime, sortable: true, width: 170 },
];

/** 操作日志: every change made through the console, who, what, target, address, result. */
export function OperLogPage() {
  return (
    <ListPage<OperLog, OperLogFilters>
      queryKey="operLog"
      rowKey="operId"
      fetcher={listOperLogs}
      columns={columns}
      searchFields={[
        { name: 'userName', label: m.userName },
        { name: 'module', label: m.module, type: 'select', options: operLogModuleOptions },
        { name: 'success', label: m.result, type: 'select', options: logResultOptions },
        { name: 'dateRange', label: m.operTime, type: 'dateRange', rangePlaceholder: [m.beginDate, m.endDate] },
      ]}
      exporter={{ run: exportOperLogs, failText: messages.common.exportFailed }}
    />
  );
}
