import { logResultOptions, messages, type LoginLog } from '@huiyun/contract';
import { exportLoginLogs, listLoginLogs, type LoginLogFilters } from '../../../api/monitor.ts';
import { ListPage, type ListColumn } from '../../../components/ListPage/index.ts';
import { ClientText } from '../ClientText.tsx';
import { ResultTag } from '../ResultTag.tsx';

const m = messages.monitor;

const columns: ListColumn<LoginLog>[] = [
  { key: 'infoId', title: m.infoId, width: 90, secondary: true },
  { key: 'userName', title: m.userName, sortable: true },
  { key: 'ip', title: m.ip, sortable: true },
  { key: 'client', title: m.client, width: 220, render: (_value, row) => <ClientText client={row.client} userAgent={row.userAgent} /> },
  { key: 'success', title: m.result, width: 70, render: (value: LoginLog['success']) => <ResultTag value={value} /> },
  { key: 'message', title: m.message, width: 200 },
  { key: 'loginTime', title: m.loginTime, sortable: true, width: 170 },
];

/** 登录日志: every login attempt, successful or not, with address and browser. */
export function LoginLogPage() {
  return (
    <ListPage<LoginLog, LoginLogFilters>
      queryKey="loginLog"
      rowKey="infoId"
      fetcher={listLoginLogs}
      columns={columns}
      searchFields={[
        { name: 'userName', label: m.userName },
        { name: 'ip', label: m.ip },
        { name: 'success', label: m.result, type: 'select', options: logResultOptions },
        { name: 'dateRange', label: m.loginTime, type: 'dateRange', rangePlaceholder: [m.beginDate, m.endDate] },
      ]}
      exporter={{ run: exportLoginLogs, failText: messages.common.exportFailed }}
    />
  );
}
