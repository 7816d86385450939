import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { installSaveAsImageToolbox } from './toolboxSaveAsImage.ts';

// Only what 数据可视化 draws (bars, lines, pies; grid, legend, tooltip, the 暂无数据 title, the save-as-image
// toolbox with 保存为图片 alone): echarts/core keeps the rest out of the screen's chunk. Imported by this screen alone, which
// the router loads on first opening (app/router.tsx), so no other screen's bytes grow.
echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TitleComponent, installSaveAsImageToolbox, TooltipComponent, CanvasRenderer]);

export { echarts };
export type { EChartsCoreOption } from 'echarts/core';
