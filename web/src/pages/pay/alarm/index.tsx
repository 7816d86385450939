import { Tag, Typography } from 'antd';
import { messages, payAlarmKindColor, payAlarmKindLabel, payAlarmKindOptions, type PayAlarm } from '@huiyun/contract';
import { exportPayAlarms, listPayAlarms, type PayAlarmFilters } from '../../../api/payAlarm.ts';
import { ListPage, type FieldConfig, type ListColumn } from '../../../components/ListPage/index.ts';
import { useCompanyOptions } from '../../../components/useCompanyOptions.ts';

const m = messages.payAlarm;

/** An alarm's kind as a coloured tag; a kind this release does not know reads as itself. */
function PayAlarmKindTag({ kind }: { kind: string }) {
  return <Tag color={payAlarmKindColor(kind)}>{payAlarmKindLabel(kind)}</Tag>;
}

// At 1366 px every column fits (no row actions). The company shows to the super administrator (who also
// sees the alarms of unknown orders, with no company) and to whoever sees more than one (useCompanyOptions).
const columns = (manyCompanies: boolean): ListColumn<PayAlarm>[] => [
  { key: 'createTime', title: m.createTime, sortable: true, width: 170 },
  { key: 'kind', title: m.kind, width: 140, render: (_v, row) => <PayAlarmKindTag kind={row.kind} /> },
  // copied into 交易订单's 订单号 search to open the order
  { key: 'orderNo', title: m.orderNo, width: 230, render: (_v, row) => (row.orderNo ? <Typography.Text copyable>{row.orderNo}</Typography.Text> : '') },
  { key: 'machineNo', title: m.machineNo, width: 120 },
  ...(manyCompanies ? [{ key: 'deptName', title: m.deptName, width: 140, render: (_v: unknown, row: PayAlarm) => row.deptName || m.noDept }] : []),
  { key: 'detail', title: m.detail, ellipsis: { showTitle: true } },
];

const all = { value: '', label: m.all };

/** 支付告警: what the payment half recorded when a notification, a payment or a refund did not fit its order. Read only. */
export function PayAlarmPage() {
  const companies = useCompanyOptions();

  const searchFields: FieldConfig[] = [
    { name: 'kind', label: m.kindFilter, type: 'select', options: [all, ...payAlarmKindOptions] },
    { name: 'orderNo', label: m.orderNo },
    { name: 'machineNo', label: m.machineNo },
    ...companies.fields({ name: 'deptId', label: m.dept }),
    { name: 'dateRange', label: m.timeRange, type: 'dateRange', rangePlaceholder: [m.beginDate, m.endDate] },
  ];

  return (
    <ListPage<PayAlarm, PayAlarmFilters>
      queryKey="payAlarm"
      rowKey="alarmId"
      fetcher={listPayAlarms}
      columns={columns(companies.many)}
      searchFields={searchFields}
      exporter={{ run: exportPayAlarms, failText: messages.common.exportFailed }}
    />
  );
}
