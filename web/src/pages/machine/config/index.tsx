import { lazy } from 'react';
import { Tag } from 'antd';
import { fill, labelOf, messages, PayOpen, payOpenOptions, payTypeOptions, Perm, type TerminalConfig } from '@huiyun/contract';
import { deleteTerminalConfigs, exportTerminalConfigs, listTerminalConfigs, type TerminalConfigFilters } from '../../../api/terminalConfig.ts';
import { ListPage, type ListColumn } from '../../../components/ListPage/index.ts';

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
  return (
    <ListPage<TerminalConfig, TerminalConfigFilters>
      queryKey="terminalConfig"
      rowKey="tcId"
      fetcher={listTerminalConfigs}
      columns={columns}
      searchFields={[{ name: 'machineNo', label: m.machineNo }]}
      edit={{ permission: Perm.terminalConfigSave, dialog: TerminalConfigDialog }}
      exporter={{ run: exportTerminalConfigs, failText: messages.common.exportFailed }}
      remove={{ run: (ids) => deleteTerminalConfigs(ids.map(Number)), failText: m.deleteFailed, permission: Perm.terminalConfigDelete }}
    />
  );
}
