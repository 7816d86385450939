import { useEffect, useRef } from 'react';
import { messages } from '@huiyun/contract';
import { init, type EChartsCoreOption } from './echarts.ts';

const m = messages.salesCharts;

export type EChartProps = { option: EChartsCoreOption; empty: boolean; height: number; name: string };

/**
 * One chart: drawn into its own box, redrawn when its option changes, resized with its box (the window, the
 * menu folding), saved as an image from its toolbox. An empty period still draws its axes, with 暂无数据.
 * It comes with ECharts in a chunk of its own, which useChartLibrary loads and ChartSlot shows.
 */
export function EChart({ option, empty, height, name }: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof init> | null>(null);

  useEffect(() => {
    const instance = init(box.current!);
    chart.current = instance;
    const resize = new ResizeObserver(() => instance.resize());
    resize.observe(box.current!);
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption({
      ...option,
      title: empty ? { text: m.noData, left: 'center', top: 'middle', textStyle: { color: '#999', fontSize: 14, fontWeight: 'normal' } } : { show: false },
      toolbox: { right: 8, feature: { saveAsImage: { title: m.saveImage, name, pixelRatio: 2 } } },
    }, { notMerge: true });
  }, [option, empty, name]);

  return <div ref={box} className="sales-chart" data-chart={name} data-empty={empty ? 'true' : 'false'} style={{ width: '100%', height }} />;
}
