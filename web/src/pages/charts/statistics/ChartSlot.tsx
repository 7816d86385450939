import { Spin } from 'antd';
import { messages } from '@huiyun/contract';
import type { EChartProps } from './EChart.tsx';
import type { ChartLibrary } from './useChartLibrary.ts';

const m = messages.salesCharts;

type Props = Omit<EChartProps, 'height'> & { height?: number; library: ChartLibrary };

/** A chart's place (300 px high unless told): the chart once the chart library has come, until then 图表加载中… (or 图表加载失败). */
export function ChartSlot({ library, height = 300, ...chart }: Props) {
  const { Chart } = library;
  if (Chart) return <Chart {...chart} height={height} />;
  return (
    <div className="sales-chart-pending" data-chart={chart.name} style={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center', color: '#999' }}>
      {library.failed ? m.chartsLoadFailed : <Spin description={m.chartsLoading}><div style={{ width: 160, height: 48 }} /></Spin>}
    </div>
  );
}
