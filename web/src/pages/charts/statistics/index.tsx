import { useMemo, useState } from 'react';
import { useQuery, keepPreviousData } from '@tanstack/react-query';
import { Button, Col, Form, Radio, Row, Select, Space, Table, Tooltip } from 'antd';
import { messages, payTypeOptions, type DeptChoice, type SalesRank } from '@huiyun/contract';
import { fetchSalesCharts, fetchSalesChartsOptions, type SalesChartsFilters } from '../../../api/salesCharts.ts';
import { queryKeys } from '../../../api/queryKeys.ts';
import { useCompanyOptions } from '../../../components/useCompanyOptions.ts';
import { CompanySelect } from '../../../components/CompanySelect.tsx';
import { Panel } from '../../../components/Panel.tsx';
import { RadioGroup } from '../../../components/RadioGroup.tsx';
import { DateRangeInput } from '../../../components/ListPage/DateRangeInput.tsx';
import { amountOption, clicksOption, countOption, shareOption } from './chartOptions.ts';
import { ChartSlot } from './ChartSlot.tsx';
import { useChartLibrary } from './useChartLibrary.ts';
import { SalesCards } from './SalesCards.tsx';

const m = messages.salesCharts;
const noCompanies: DeptChoice[] = [];

type Filters = Omit<SalesChartsFilters, 'granularity'>;

const rankColumns = (keyTitle: string, withName: boolean) => [
  { key: 'rank', title: m.rank, width: 56, render: (_v: unknown, _r: SalesRank, i: number) => i + 1 },
  { key: 'key', dataIndex: 'key', title: keyTitle, ellipsis: true, render: (key: string) => key || m.goodsUnnamed },
  ...(withName ? [{ key: 'name', dataIndex: 'name', title: m.machineName, ellipsis: true }] : []),
  { key: 'amount', dataIndex: 'amount', title: m.salesAmount, align: 'right' as const, width: 120 },
  { key: 'count', dataIndex: 'count', title: m.salesCount, align: 'right' as const, width: 90 },
];

type RankProps = { title: string; className: string; keyTitle: string; withName: boolean; rows: SalesRank[] | undefined; loading: boolean };

/** A top-10 (terminals or goods) by amount net of refunds. */
function RankTable({ title, className, keyTitle, withName, rows, loading }: RankProps) {
  return (
    <Panel title={title}>
      <Table<SalesRank> className={className} size="small" rowKey="key" pagination={false} loading={loading} locale={{ emptyText: m.noData }}
        columns={rankColumns(keyTitle, withName)} dataSource={rows ?? []} />
    </Panel>
  );
}

/** A chart's title, underlined dotted: hovering (or focusing) it says what its figures mean. */
const titled = (title: string, tip: string) => (
  <Tooltip title={tip}>
    <span className="sales-chart-tip" tabIndex={0} style={{ borderBottom: '1px dotted #999', cursor: 'help' }}>{title}</span>
  </Tooltip>
);

/** 数据可视化 (SPEC §2.13): sales, clicks and pay methods of the caller's companies, from the rollups. */
export function SalesChartsPage() {
  const [form] = Form.useForm<Filters>();
  const [granularity, setGranularity] = useState<SalesChartsFilters['granularity']>('day');
  const [filters, setFilters] = useState<Filters>({});
  const deptId = Form.useWatch('deptId', form);

  const options = useQuery({ queryKey: queryKeys.options('salesCharts', 'filters'), queryFn: fetchSalesChartsOptions, staleTime: 60_000, meta: { silent: true } });
  const charts = useQuery({
    queryKey: queryKeys.list('salesCharts', { granularity, ...filters }),
    queryFn: () => fetchSalesCharts({ granularity, ...filters }),
    placeholderData: keepPreviousData,
    retry: false,
    meta: { errorText: m.loadFailed },
  });

  // The filter choices carry the caller's companies: nothing more is fetched for them.
  const companies = useCompanyOptions({ choices: options.data?.depts ?? noCompanies });
  const machineOptions = useMemo(
    () => (options.data?.machines ?? []).filter((x) => deptId === undefined || x.deptId === deptId).map((x) => ({ value: x.machineNo, label: x.machineName ? `${x.machineNo} ${x.machineName}` : x.machineNo })),
    [options.data, deptId],
  );

  const data = charts.data;
  const series = useMemo(() => data?.series ?? [], [data]);
  const noSales = series.every((p) => p.paidCount === 0 && p.amount === '0.00');
  const noClicks = series.every((p) => p.createdCount === 0);
  const chartOptions = useMemo(() => ({
    count: countOption(series), amount: amountOption(series), clicks: clicksOption(series),
    shareAmount: shareOption(data?.payShare ?? [], 'amount'), shareCount: shareOption(data?.payShare ?? [], 'count'),
  }), [series, data]);
  const noShare = (data?.payShare ?? []).every((s) => s.count === 0 && s.amount === '0.00');
  const chartLibrary = useChartLibrary(!charts.isPending);

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} className="sales-charts">
      <Panel>
        <Form form={form} layout="inline" onFinish={(values) => setFilters(values)} className="sales-charts-filters">
          {companies.many && (
            <Form.Item name="deptId" label={m.dept}>
              <CompanySelect companies={companies} allowClear style={{ width: 180 }} placeholder={m.all} onChange={() => form.setFieldValue('machineNo', undefined)} />
            </Form.Item>
          )}
          <Form.Item name="machineNo" label={m.machine}>
            <Select allowClear showSearch={{ optionFilterProp: 'label' }} style={{ width: 200 }} placeholder={m.all} options={machineOptions} />
          </Form.Item>
          <Form.Item name="payType" label={m.payType}>
            <Select allowClear style={{ width: 140 }} placeholder={m.all} options={payTypeOptions} />
          </Form.Item>
          <Form.Item name="dateRange" label={m.timeRange}>
            <DateRangeInput placeholder={[m.beginDate, m.endDate]} />
          </Form.Item>
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit">{m.search}</Button>
              <Button onClick={() => { form.resetFields(); setFilters({}); }}>{m.reset}</Button>
            </Space>
          </Form.Item>
        </Form>
      </Panel>

      <SalesCards cards={data?.cards ?? []} loading={charts.isLoading} />

      <Panel
        title={data ? `${data.from} ~ ${data.to}` : m.title}
        extra={(
          <RadioGroup label={m.granularity} value={granularity} onChange={(e) => setGranularity(e.target.value)} optionType="button" buttonStyle="solid" className="sales-charts-granularity">
            <Radio.Button value="day">{m.day}</Radio.Button>
            <Radio.Button value="month">{m.month}</Radio.Button>
            <Radio.Button value="year">{m.year}</Radio.Button>
          </RadioGroup>
        )}
      >
        <Row gutter={16}>
          <Col span={8}><h4>{m.countChart}</h4><ChartSlot library={chartLibrary} name={m.countChart} option={chartOptions.count} empty={noSales} /></Col>
          <Col span={8}><h4>{titled(m.amountChart, m.amountTip)}</h4><ChartSlot library={chartLibrary} name={m.amountChart} option={chartOptions.amount} empty={noSales} /></Col>
          <Col span={8}><h4>{titled(m.clicksChart, m.clicksTip)}</h4><ChartSlot library={chartLibrary} name={m.clicksChart} option={chartOptions.clicks} empty={noClicks} /></Col>
        </Row>
      </Panel>

      <Row gutter={16}>
        <Col span={12}><Panel title={m.payShareAmount}><ChartSlot library={chartLibrary} name={m.payShareAmount} option={chartOptions.shareAmount} empty={noShare} height={280} /></Panel></Col>
        <Col span={12}><Panel title={m.payShareCount}><ChartSlot library={chartLibrary} name={m.payShareCount} option={chartOptions.shareCount} empty={noShare} height={280} /></Panel></Col>
      </Row>

      <Row gutter={16}>
        <Col span={12}><RankTable title={m.topMachines} className="sales-top-machines" keyTitle={m.machineNo} withName rows={data?.topMachines} loading={charts.isLoading} /></Col>
        <Col span={12}><RankTable title={m.topGoods} className="sales-top-goods" keyTitle={m.goodsName} withName={false} rows={data?.topGoods} loading={charts.isLoading} /></Col>
      </Row>
    </Space>
  );
}
