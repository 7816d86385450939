import { lazy } from 'react';
import { Badge, Divider, Typography } from 'antd';
import { ArrowLeftOutlined } from '../../../shared/icons.tsx';
import { Link } from 'react-router';
import { DEVICE_LIST_URL, menuUrlOf, messages, Perm, type DeviceRow } from '@huiyun/contract';
import { listDevices, type DeviceFilters } from '../../../api/device.ts';
import { ListPage, type ListColumn } from '../../../components/ListPage/index.ts';
import { usePermission } from '../../../shared/useCurrentUser.ts';
import { DeviceActivationHelp } from './DeviceActivationHelp.tsx';
import { batteryText, capabilitiesText, deviceStatusBadges, deviceStatusOf, signalText } from './deviceStatus.ts';

// 生成授权码 (antd Form, the contract's schemas and zod) loads when first opened.
const AddAuthCodeDialog = lazy(() => import('../../../components/AddAuthCodeDialog.tsx').then((d) => ({ default: d.AddAuthCodeDialog })));

const m = messages.device;
/** Who may make codes: the same rule as 授权码列表's 新增. */
const makeCode = { permission: Perm.authCodeSave, account: 'administrator' } as const;
const BACK_URL = menuUrlOf(DEVICE_LIST_URL);
/** Devices report every minute or more often: the list follows in the background, status and counters move. */
const DEVICE_REFRESH_MS = 10_000;

// At 1366 px: the device, its owner, whether it is online and working, what it can send, and its quota; code, lease
// and the phone's own figures (battery, signal, app version) from 1600 px.
const columns: ListColumn<DeviceRow>[] = [
  { key: 'machineName', title: m.machineName, width: 140 },
  { key: 'machineCode', title: m.machineCode, width: 140 },
  { key: 'userName', title: m.userName, width: 100 },
  { key: 'authCode', title: m.authCode, width: 150, secondary: true },
  {
    key: 'online', title: m.status, width: 80,
    // The device's own word on itself (限额已满, 手机无响应) under the badge.
    render: (_value, row) => (
      <>
        <Badge {...deviceStatusBadges[deviceStatusOf(row)]} />
        {row.state && <Typography.Text type="warning" style={{ display: 'block', fontSize: 12 }}>{row.state}</Typography.Text>}
      </>
    ),
  },
  { key: 'capabilities', title: m.capabilities, width: 70, render: capabilitiesText },
  { key: 'lastSeenStr', title: m.lastSeen, width: 170, render: (value: string) => value || '-' },
  { key: 'sentToday', title: m.sentToday, width: 90 },
  { key: 'leased', title: m.leased, width: 90, secondary: true },
  { key: 'battery', title: m.battery, width: 80, secondary: true, render: batteryText },
  { key: 'signal', title: m.signal, width: 80, secondary: true, render: signalText },
  { key: 'appVersion', title: m.appVersion, width: 90, secondary: true, render: (value: string) => value || '-' },
  { key: 'dueNum', title: m.dueNum, width: 100 },
  { key: 'dueDateStr', title: m.dueDateStr, width: 170 },
];

/** 设备列表, opened from 授权码列表: the activated devices, their status and today's work, kept fresh. */
export function DevicesPage() {
  const mayMakeCode = usePermission(makeCode);
  return (
    <ListPage<DeviceRow, DeviceFilters>
      queryKey="device"
      rowKey="authCodeId"
      fetcher={listDevices}
      columns={columns}
      searchFields={[{ name: 'machineName', label: m.machineName }]}
      refreshInterval={() => DEVICE_REFRESH_MS}
      // The code is made in ListPage's add dialog; no 新增 button (the screen lists devices, not codes).
      edit={{ ...makeCode, canAdd: false, canEdit: false, dialog: AddAuthCodeDialog }}
      emptyState={(ctx) => <DeviceActivationHelp onMakeCode={mayMakeCode ? ctx.openAdd : undefined} />}
      title={
        <>
          <Link to={BACK_URL}>
            <ArrowLeftOutlined /> {m.backToAuthCodes}
          </Link>
          <Divider orientation="vertical" />
          {m.title}
        </>
      }
    />
  );
}
