import { useEffect, useState, type ComponentType } from 'react';
import type { EChartProps } from './EChart.tsx';

export type ChartLibrary = { Chart: ComponentType<EChartProps> | null; failed: boolean };

/**
 * The chart component with ECharts (≈ 156 KB br, the largest file the screen loads), asked for once `wanted`
 * holds: the screen wants it when its figures have come, so the cards and tables are drawn first and
 * nothing they show waits for it.
 */
export function useChartLibrary(wanted: boolean): ChartLibrary {
  const [library, setLibrary] = useState<ChartLibrary>({ Chart: null, failed: false });
  const needed = wanted && !library.Chart && !library.failed;

  useEffect(() => {
    if (!needed) return;
    let live = true;
    import('./EChart.tsx').then(
      ({ EChart }) => live && setLibrary({ Chart: EChart, failed: false }),
      () => live && setLibrary({ Chart: null, failed: true }),
    );
    return () => { live = false; };
  }, [needed]);

  return library;
}
