import { lazy, Suspense, useState } from 'react';
import { Badge, Tag, Tooltip } from 'antd';
import { useNavigate } from 'react-router';
import { fill, MachineStatus, machineStatusOptions, messages, Perm, type Machine } from '@huiyun/contract';
import {
  deleteMachines, exportMachines, listMachines, resetTerminalKey, setMachineStatus, type MachineFilters,
} from '../../../api/machine.ts';
import { usePermission } from '../../../shared/useCurrentUser.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';
import { ListPage, type ListColumn, type RowAction } from '../../../components/ListPage/index.ts';
import { machineDialog } from './machineDialog.ts';
import type { ShownKey } from './TerminalKeyDialog.tsx';
import { useCompanyOptions } from '../../../components/useCompanyOptions.ts';
import { useOpenedOnce } from '../../../components/useOpenedOnce.ts';

// The terminal key dialog (Modal, Alert, Typography) loads when a key is first shown.
const TerminalKeyDialog = lazy(() => import('./TerminalKeyDialog.tsx').then((d) => ({ default: d.TerminalKeyDialog })));

const m = messages.machine;

const AISLE_URL = '/machine/MachineAisle';

/** 机器列表: the company's vending machines, each with a terminal key shown once. */
export function MachineInfoPage() {
  // The company field is in the add / edit dialog: its choices are loaded for whoever may save.
  const maySave = usePermission(Perm.machineSave);
  const navigate = useNavigate();
  const [shownKey, setShownKey] = useState<ShownKey | null>(null);
  const keyOpened = useOpenedOnce(shownKey !== null);
  const companies = useCompanyOptions({ enabled: maySave });

  // At 1366 px: number, name, company, status, online and last seen; address and created time from 1600 px.
  const columns: ListColumn<Machine>[] = [
    { key: 'machineNo', title: m.machineNo, sortable: true, width: 150 },
    { key: 'machineName', title: m.machineName, sortable: true },
    { key: 'deptName', title: m.deptName, sortable: true },
    { key: 'address', title: m.address, secondary: true },
    {
      key: 'status', title: m.status, sortable: true, width: 80,
      render: (_v, row) => <Tag color={row.status === MachineStatus.enabled ? 'green' : 'default'}>{row.status === MachineStatus.enabled ? m.enabled : m.disabled}</Tag>,
    },
    {
      key: 'online', title: m.online, width: 90,
      render: (_v, row) => <Badge status={row.online ? 'success' : 'default'} text={row.online ? m.onlineYes : m.onlineNo} />,
    },
    {
      key: 'lastSeenAt', title: m.lastSeenAt, sortable: true, width: 170,
      render: (_v, row) => row.lastSeenAt || <Tooltip title={m.neverSeen}><span>—</span></Tooltip>,
    },
    { key: 'addTime', title: m.addTime, sortable: true, width: 170, secondary: true },
  ];

  const resetKey = useServerAction('machine', (row: Machine) => resetTerminalKey(row.machineId), {
    successText: (answer) => answer.msg,
    onDone: (answer) => setShownKey({ machineNo: answer.key.machineNo, terminalKey: answer.key.terminalKey }),
  });
  const askResetKey = (row: Machine) => resetKey.run(row, m.resetKeyFailed);

  const rowActions: RowAction<Machine>[] = [
    { key: 'aisles', label: messages.aisle.title, permission: Perm.aisleList, onClick: (row) => void navigate(`${AISLE_URL}?machineId=${row.machineId}`) },
    {
      key: 'disable', label: m.disable, permission: Perm.machineSave, visible: (row) => row.status === MachineStatus.enabled,
      confirm: (row) => fill(m.disableConfirm, { machineNo: row.machineNo }),
      run: (row) => setMachineStatus(row.machineId, MachineStatus.disabled), failText: m.statusFailed,
    },
    {
      key: 'enable', label: m.enable, permission: Perm.machineSave, visible: (row) => row.status !== MachineStatus.enabled,
      confirm: (row) => fill(m.enableConfirm, { machineNo: row.machineNo }),
      run: (row) => setMachineStatus(row.machineId, MachineStatus.enabled), failText: m.statusFailed,
    },
    {
      key: 'resetKey', label: m.resetKey, danger: true, permission: Perm.machineResetKey,
      confirm: (row) => fill(m.resetKeyConfirm, { machineNo: row.machineNo }), onClick: (row) => void askResetKey(row),
    },
  ];

  return (
    <>
      <ListPage<Machine, MachineFilters>
        queryKey="machine"
        rowKey="machineId"
        fetcher={listMachines}
        columns={columns}
        searchFields={[
          { name: 'machineNo', label: m.machineNo },
          { name: 'machineName', label: m.machineName },
          { name: 'status', label: m.status, type: 'select', options: [{ value: '', label: m.statusAll }, ...machineStatusOptions] },
        ]}
        edit={machineDialog({ companies, onCreated: setShownKey })}
        rowActions={rowActions}
        exporter={{ run: exportMachines, failText: messages.common.exportFailed }}
        remove={{ run: (ids) => deleteMachines(ids.map(Number)), failText: m.deleteFailed, permission: Perm.machineDelete }}
      />
      {keyOpened && (
        <Suspense fallback={null}>
          <TerminalKeyDialog shown={shownKey} onClose={() => setShownKey(null)} />
        </Suspense>
      )}
    </>
  );
}
