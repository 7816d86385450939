import { Space, Tag } from 'antd';
import { fill, messages, Perm, type OnlineSession } from '@huiyun/contract';
import { exportOnline, forceLogout, listOnline, type OnlineFilters } from '../../../api/monitor.ts';
import { ListPage, type ListColumn } from '../../../components/ListPage/index.ts';
import { ClientText } from '../ClientText.tsx';

const m = messages.monitor;

const columns: ListColumn<OnlineSession>[] = [
  {
    key: 'userName',
    title: m.userName,
    sortable: true,
    render: (_value, row) => (
      <Space size={4}>
        {row.userName}
        {row.current && <Tag color="blue">{m.currentSession}</Tag>}
      </Space>
    ),
  },
  // At 1366 px: who, where from, with what, since when and last seen; company and expiry from 1600 px.
  { key: 'userRealName', title: m.userRealName },
  { key: 'deptName', title: m.deptName, secondary: true },
  { key: 'ip', title: m.ip, sortable: true },
  { key: 'client', title: m.client, width: 200, render: (_value, row) => <ClientText client={row.client} userAgent={row.userAgent} /> },
  { key: 'loginTime', title: m.loginTime, sortable: true, width: 170 },
  { key: 'lastSeenAt', title: m.lastSeenAt, sortable: true, width: 170 },
  { key: 'expiresAt', title: m.expiresAt, width: 170, secondary: true },
];

/** 在线用户: the live sessions in the caller's scope; 强制下线 ends one of them. */
export function OnlinePage() {
  return (
    <ListPage<OnlineSession, OnlineFilters>
      queryKey="online"
      rowKey="sessionId"
      fetcher={listOnline}
      columns={columns}
      searchFields={[
        { name: 'userName', label: m.userName },
        { name: 'ip', label: m.ip },
      ]}
      exporter={{ run: exportOnline, failText: messages.common.exportFailed }}
      rowActions={[
        {
          key: 'forceLogout',
          label: m.forceLogout,
          danger: true,
          // Your own session ends through 退出登录, not here.
          permission: Perm.onlineForceLogout, visible: (row) => !row.current,
          confirm: (row) => fill(m.forceLogoutConfirm, { userName: row.userName }),
          cancelledText: messages.common.cancelled,
          run: forceLogout,
          failText: m.forceLogoutFailed,
        },
      ]}
    />
  );
}
