import { Button, Progress, Space, Table, Tag, Tooltip } from 'antd';
import { Fragment, type ReactNode } from 'react';
import { fill, MachineStatus, messages, Perm, type Aisle } from '@huiyun/contract';
import { useAllowed, type Access } from '../../../shared/useCurrentUser.ts';
import type { useAisleActions } from './useAisleActions.ts';

const a = messages.aisle;

type Props = { aisles: Aisle[]; loading: boolean; actions: ReturnType<typeof useAisleActions>; onEdit: (aisle: Aisle) => void };
type RowAction = Access & { key: string; render: (row: Aisle) => ReactNode };

export function stockPercent(aisle: Aisle): number {
  return aisle.capacity === 0 ? 0 : Math.round((aisle.stock / aisle.capacity) * 100);
}

/** What the machine reported in its heartbeat; flagged when it differs from the server's stock. */
function ReportedStock({ aisle }: { aisle: Aisle }) {
  if (aisle.reportedStock === null) return <span style={{ opacity: 0.45 }}>{a.reportedNever}</span>;
  const differs = aisle.reportedStock !== aisle.stock;
  const when = fill(a.reportedAt, { time: aisle.reportedAt });
  return (
    <Tooltip title={differs ? `${fill(a.reportedDiffers, { reported: aisle.reportedStock })}（${when}）` : when}>
      {differs ? <Tag color="warning">{aisle.reportedStock}</Tag> : <span>{aisle.reportedStock}</span>}
    </Tooltip>
  );
}

/** The aisles as a table, layer by layer: one row per aisle with its actions. */
export function AisleTable({ aisles, loading, actions, onEdit }: Props) {
  const rowActions = useAllowed([
    { key: 'edit', permission: Perm.aisleSave, render: (row) => <Button type="link" size="small" onClick={() => onEdit(row)}>{a.edit}</Button> },
    { key: 'restock', permission: Perm.aisleSave, render: (row) => <Button type="link" size="small" disabled={row.stock >= row.capacity} onClick={() => actions.restockOne(row)}>{a.restock}</Button> },
    { key: 'toggle', permission: Perm.aisleSave, render: (row) => <Button type="link" size="small" onClick={() => actions.toggle(row)}>{row.status === MachineStatus.enabled ? a.disable : a.enable}</Button> },
    { key: 'delete', permission: Perm.aisleDelete, render: (row) => <Button type="link" size="small" danger onClick={() => actions.remove(row)}>{messages.common.delete}</Button> },
  ] satisfies RowAction[]);
  return (
    <Table<Aisle>
      rowKey="aisleId"
      size="middle"
      loading={loading}
      dataSource={aisles}
      pagination={false}
      scroll={{ x: 900 }}
      columns={[
        { key: 'aisleNo', dataIndex: 'aisleNo', title: a.aisleNo, width: 90 },
        { key: 'goodsNo', dataIndex: 'goodsNo', title: a.goodsNo, width: 120 },
        { key: 'goodsName', dataIndex: 'goodsName', title: a.goodsName, render: (name: string) => name || <span style={{ opacity: 0.45 }}>{a.emptyCell}</span> },
        { key: 'price', dataIndex: 'price', title: a.price, width: 110, align: 'right' },
        {
          key: 'stock', title: `${a.stock} / ${a.capacity}`, width: 170,
          render: (_v, row) => (
            <Space size={8}>
              <span>{row.stock} / {row.capacity}</span>
              <Progress percent={stockPercent(row)} size="small" showInfo={false} style={{ width: 60, margin: 0 }} status={row.stock === 0 ? 'exception' : 'normal'} />
            </Space>
          ),
        },
        {
          key: 'reportedStock', title: a.reportedStock, width: 110,
          render: (_v, row) => <ReportedStock aisle={row} />,
        },
        {
          key: 'status', dataIndex: 'status', title: a.status, width: 80,
          render: (status: number) => <Tag color={status === MachineStatus.enabled ? 'green' : 'default'}>{status === MachineStatus.enabled ? a.enabled : a.disabled}</Tag>,
        },
        {
          key: 'actions', title: messages.common.actions, width: 220,
          render: (_v, row) => (
            <Space size={0} className="aisle-actions">
              {rowActions.map((action) => <Fragment key={action.key}>{action.render(row)}</Fragment>)}
            </Space>
          ),
        },
      ]}
    />
  );
}
