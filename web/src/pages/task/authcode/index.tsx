import { lazy, Suspense, useState } from 'react';
import { Button, Tag } from 'antd';
import { MobileOutlined } from '../../../shared/icons.tsx';
import { useNavigate } from 'react-router';
import { DEVICE_LIST_URL, fill, isAuthCodeUsed, messages, Perm, type AuthCode } from '@huiyun/contract';
import { deleteAuthCode, exportAuthCodes, listAuthCodes, type AuthCodeFilters } from '../../../api/authcode.ts';
import { ListPage, type ListColumn, type RowAction } from '../../../components/ListPage/index.ts';
import { useOpenedOnce } from '../../../components/useOpenedOnce.ts';

// 新增 and 充值 (antd Form, the contract's schemas and zod) load when first opened.
const AddAuthCodeDialog = lazy(() => import('../../../components/AddAuthCodeDialog.tsx').then((d) => ({ default: d.AddAuthCodeDialog })));
const RechargeDialog = lazy(() => import('./RechargeDialog.tsx').then((d) => ({ default: d.RechargeDialog })));

const m = messages.authcode;
const AUTH_CODE_PAGE_SIZE = 10; // SPEC §9

const columns: ListColumn<AuthCode>[] = [
  { key: 'id', title: m.id, width: 80 },
  { key: 'userName', title: m.userName },
  { key: 'authCode', title: m.authCode, width: 160 },
  {
    key: 'useStatus', title: m.useStatus, width: 90,
    render: (useStatus: number) => (isAuthCodeUsed(useStatus) ? <Tag color="green">{m.used}</Tag> : <Tag>{m.unused}</Tag>),
  },
  { key: 'machineName', title: m.machineName },
  { key: 'dueNum', title: m.dueNum, width: 100 },
  { key: 'dueDateStr', title: m.dueDateStr, width: 170 },
];

/** 授权码列表 (SPEC §2.15): search by code; add, recharge and delete for administrators only. */
export function AuthCodePage() {
  const navigate = useNavigate();
  const [recharging, setRecharging] = useState<AuthCode | null>(null);
  const rechargeOpened = useOpenedOnce(recharging !== null);

  // Adding, recharging and deleting codes are the administrators' business.
  const rowActions: RowAction<AuthCode>[] = [
    { key: 'recharge', label: m.recharge, permission: Perm.authCodeRecharge, account: 'administrator', onClick: (row) => setRecharging(row) },
    {
      key: 'delete',
      label: messages.common.delete,
      danger: true,
      permission: Perm.authCodeDelete,
      account: 'administrator',
      confirm: (row) => fill(m.confirmDelete, { authCode: row.authCode }),
      cancelledText: messages.common.cancelledDelete,
      run: (row) => deleteAuthCode(row.id),
      failText: m.deleteFailed,
    },
  ];

  return (
    <>
      <ListPage<AuthCode, AuthCodeFilters>
        queryKey="authcode"
        rowKey="id"
        fetcher={listAuthCodes}
        columns={columns}
        defaultPageSize={AUTH_CODE_PAGE_SIZE}
        searchFields={[{ name: 'authCode', label: m.authCode }]}
        rowActions={rowActions}
        exporter={{ run: exportAuthCodes, failText: messages.common.exportFailed }}
        edit={{ permission: Perm.authCodeSave, account: 'administrator', canEdit: false, dialog: AddAuthCodeDialog }}
        toolbar={[
          {
            key: 'devices',
            render: () => (
              <Button icon={<MobileOutlined />} onClick={() => navigate(DEVICE_LIST_URL)}>
                {messages.device.openDevices}
              </Button>
            ),
          },
        ]}
      />
      <Suspense fallback={null}>
        {rechargeOpened && <RechargeDialog code={recharging} onClose={() => setRecharging(null)} />}
      </Suspense>
    </>
  );
}
