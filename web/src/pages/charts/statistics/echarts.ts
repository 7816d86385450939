import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import { init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { installSaveAsImageToolbox } from './toolboxSaveAsImage.ts';

// Only what 数据可视化 draws (bars, lines, pies; grid, legend, tooltip, the 暂无数据 title, the save-as-image
// toolbox with 保存为图片 alone): echarts/core keeps the rest out of the chunk. Imported by EChart.tsx alone,
// which the screen loads after its figures have come (useChartLibrary), so neither the screen's first view
// nor any other screen carries it.
use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TitleComponent, installSaveAsImageToolbox, TooltipComponent, CanvasRenderer]);

export { init };
export type { EChartsCoreOption } from 'echarts/core';
