import { lazy, Suspense, useState } from 'react';
import { Button, Tag } from 'antd';
import { PlusOutlined } from '../../../shared/icons.tsx';
import { fill, labelOf, messages, PayOpen, payOpenOptions, payTypeOptions, Perm, type TerminalConfig } from '@huiyun/contract';
import { deleteTerminalConfigs, exportTerminalConfigs, listTerminalConfigs, type TerminalConfigFilters } from '../../../api/terminalConfig.ts';
import { ListPage, type ListColumn, type RowAction } from '../../../components/ListPage/index.ts';
import { usePermission } from '../../../shared/useCurrentUser.ts';
import { useOpenedOnce } from '../../../components/useOpenedOnce.ts';

const TerminalConfigDialog = lazy(() => import('./TerminalConfigDialog.tsx').then((m) => ({ default: m.TerminalConfigDialog })));

const m = messages.terminalConfig;

const columns: ListColumn<TerminalConfig>[] = [
  { key: 'machineNo', title: m.machineNo, sortable: true, width: 150 },
  { key: 'machineName', title: m.machineName, width: 140, secondary: true },
  { key: 'payType', title: m.payType, sortable: true, width: 100, render: (value: number) => labelOf(payTypeOptions, value) },
  { key: 'configName', title: m.configName, sortable: true, width: 140 },
  { key: 'payConfigName', title: m.configId, width: 160, render: (value: string, row) => fill(m.configChoice, { name: value, id: row.configId }) },
  {
    key: 'payOpen',
    title: m.payOpen,
    sortable: true,
    width: 80,
    render: (value: TerminalConfig['payOpen']) => <Tag color={value === PayOpen.normal ? 'success' : 'default'}>{labelOf(payOpenOptions, value)}</Tag>,
  },
  { key: 'deptName', title: m.dept, width: 130, secondary: true },
  { key: 'posNo', title: m.posNo, width: 110, secondary: true },
  { key: 'editTime', title: messages.common.editTime, sortable: true, width: 180 },
];

/** 终端支付配置 (SPEC §2.11): search by terminal number; add, edit, delete, export. */
export function TerminalConfigPage() {
  const can = usePermission();
  const [dialog, setDialog] = useState<{ editing: TerminalConfig | null } | null>(null);
  const opened = useOpenedOnce(dialog !== null);
  const rowActions: RowAction<TerminalConfig>[] = [
    { key: 'edit', label: messages.common.edit, visible: () => can(Perm.terminalConfigSave), onClick: (row) => setDialog({ editing: row }) },
  ];
  return (
    <>
      <ListPage<TerminalConfig, TerminalConfigFilters>
        queryKey="terminalConfig"
        rowKey="tcId"
        fetcher={listTerminalConfigs}
        columns={columns}
        searchFields={[{ name: 'machineNo', label: m.machineNo }]}
        rowActions={rowActions}
        toolbarExtra={() =>
          can(Perm.terminalConfigSave) && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ editing: null })}>
              {messages.common.add}
            </Button>
          )
        }
        exporter={{ run: exportTerminalConfigs, failText: messages.common.exportFailed }}
        remove={{ run: (ids) => deleteTerminalConfigs(ids.map(Number)), failText: m.deleteFailed, hidden: !can(Perm.terminalConfigDelete) }}
      />
      {opened && (
        <Suspense fallback={null}>
          <TerminalConfigDialog open={dialog !== null} editing={dialog?.editing ?? null} onClose={() => setDialog(null)} />
        </Suspense>
      )}
    </>
  );
}
