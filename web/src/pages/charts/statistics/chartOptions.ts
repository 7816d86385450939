import { messages, type PayShare, type SalesPoint } from '@huiyun/contract';
import type { EChartsCoreOption } from './echarts.ts';

const m = messages.salesCharts;

// The ECharts options of 数据可视化's charts, from the server's answer (amounts arrive as yuan text).

const grid = { left: 48, right: 24, top: 48, bottom: 32, containLabel: true };
const axis = (series: SalesPoint[]) => ({ type: 'category', data: series.map((p) => p.period), axisTick: { alignWithLabel: true } });

export function countOption(series: SalesPoint[]): EChartsCoreOption {
  return {
    grid, tooltip: { trigger: 'axis' }, xAxis: axis(series), yAxis: { type: 'value', minInterval: 1 },
    series: [{ name: m.salesCount, type: 'bar', data: series.map((p) => p.paidCount), itemStyle: { color: '#1677ff' } }],
  };
}

export function amountOption(series: SalesPoint[]): EChartsCoreOption {
  return {
    grid, tooltip: { trigger: 'axis' }, xAxis: { ...axis(series), boundaryGap: false }, yAxis: { type: 'value' },
    series: [{ name: m.salesAmount, type: 'line', smooth: true, areaStyle: { opacity: 0.12 }, data: series.map((p) => Number(p.amount)), itemStyle: { color: '#52c41a' } }],
  };
}

/** Clicks (orders created) beside the paid ones, and the conversion in the tooltip. */
export function clicksOption(series: SalesPoint[]): EChartsCoreOption {
  return {
    grid, legend: { top: 8, left: 8, data: [m.clicks, m.salesCount] },
    tooltip: {
      trigger: 'axis',
      formatter: (items: { dataIndex: number }[]) => {
        const p = series[items[0]?.dataIndex ?? 0]!;
        const rate = p.createdCount > 0 ? `${((p.paidCount / p.createdCount) * 100).toFixed(1)}%` : '—';
        return `${p.period}<br/>${m.clicks}：${p.createdCount}<br/>${m.salesCount}：${p.paidCount}<br/>${m.conversion}：${rate}`;
      },
    },
    xAxis: axis(series), yAxis: { type: 'value', minInterval: 1 },
    series: [
      { name: m.clicks, type: 'bar', data: series.map((p) => p.createdCount), itemStyle: { color: '#faad14' } },
      { name: m.salesCount, type: 'bar', data: series.map((p) => p.paidCount), itemStyle: { color: '#1677ff' } },
    ],
  };
}

export function shareOption(shares: PayShare[], by: 'amount' | 'count'): EChartsCoreOption {
  return {
    tooltip: { trigger: 'item', formatter: by === 'amount' ? '{b}：{c} 元（{d}%）' : '{b}：{c} 笔（{d}%）' },
    legend: { bottom: 0, type: 'scroll' },
    series: [{
      type: 'pie', radius: ['35%', '65%'], center: ['50%', '45%'],
      data: shares.map((s) => ({ name: s.label, value: by === 'amount' ? Number(s.amount) : s.count })),
    }],
  };
}
