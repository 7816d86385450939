import { lazy, useState } from 'react';
import { Tag } from 'antd';
import { labelOf, messages, payConfigSecretFields, payGatewayOptions, payTypeOptions, Perm, type PayConfig } from '@huiyun/contract';
import { checkPayConfig, deletePayConfigs, exportPayConfigs, listPayConfigs, type PayConfigFilters } from '../../../api/payConfig.ts';
import { ListPage, type ListColumn, type RowAction } from '../../../components/ListPage/index.ts';
import { useOpenedOnce } from '../../../components/useOpenedOnce.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';
import type { ShownCheck } from './CheckResultDialog.tsx';

const PayConfigDialog = lazy(() => import('./PayConfigDialog.tsx').then((m) => ({ default: m.PayConfigDialog })));
// the result of a 检测 that found something to fix; a valid one is a success message
const CheckResultDialog = lazy(() => import('./CheckResultDialog.tsx').then((m) => ({ default: m.CheckResultDialog })));

const m = messages.payConfig;

const columns: ListColumn<PayConfig>[] = [
  { key: 'name', title: m.name, sortable: true, width: 180 },
  { key: 'payType', title: m.payType, sortable: true, width: 100, render: (value: number) => labelOf(payTypeOptions, value) },
  { key: 'gateway', title: m.gateway, width: 110, render: (value: PayConfig['gateway']) => labelOf(payGatewayOptions, value) },
  { key: 'partner', title: m.partner, sortable: true, width: 140 },
  { key: 'deptName', title: m.dept, width: 140 },
  {
    key: 'secrets',
    title: m.secretsColumn,
    width: 150,
    secondary: true,
    render: (_v, row) => payConfigSecretFields.filter((f) => row[f] !== '').map((f) => <Tag key={f}>{m[f]}</Tag>),
  },
  { key: 'appid', title: m.appid, width: 160, secondary: true },
  { key: 'editUser', title: messages.common.editUser, width: 100, secondary: true },
  { key: 'editTime', title: messages.common.editTime, sortable: true, width: 180 },
];

/** 支付配置 (SPEC §2.12): search by name, pay type and merchant number; add, edit, delete, export; 检测 a saved config against its gateway. */
export function PayConfigPage() {
  const [shownCheck, setShownCheck] = useState<ShownCheck | null>(null);
  const checkOpened = useOpenedOnce(shownCheck !== null);
  // changes nothing listed: no reload
  const check = useServerAction(null, async (row: PayConfig) => ({ configName: row.name, result: await checkPayConfig(row.id) }), {
    successText: (shown) => (shown.result.ok ? shown.result.message : ''),
    onDone: (shown) => {
      if (!shown.result.ok) setShownCheck(shown);
    },
  });
  const rowActions: RowAction<PayConfig>[] = [
    { key: 'check', label: messages.payConfigCheck.action, permission: Perm.payConfigCheck, onClick: (row) => void check.run(row, messages.payConfigCheck.failed) },
  ];
  return (
    <>
      <ListPage<PayConfig, PayConfigFilters>
        queryKey="payConfig"
        rowKey="id"
        fetcher={listPayConfigs}
        columns={columns}
        searchFields={[
          { name: 'name', label: m.name },
          { name: 'payType', label: m.payType, type: 'select', options: payTypeOptions },
          { name: 'partner', label: m.partner },
        ]}
        rowActions={rowActions}
        edit={{ permission: Perm.payConfigSave, dialog: PayConfigDialog }}
        exporter={{ run: exportPayConfigs, failText: messages.common.exportFailed }}
        remove={{ run: (ids) => deletePayConfigs(ids.map(Number)), failText: m.deleteFailed, permission: Perm.payConfigDelete }}
      />
      {checkOpened && <CheckResultDialog shown={shownCheck} onClose={() => setShownCheck(null)} />}
    </>
  );
}
