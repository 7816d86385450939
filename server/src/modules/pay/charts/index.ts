// The front door of modules/pay/charts: what other areas, app.ts and the tools may import from it.
export { chartRange } from './periods.ts';
export { foldSalesRollups, startRollupFolding } from './rollup-fold.ts';
export { rollupNames, shanghaiDayNumber, withChartTables } from './rollup-tables.ts';
export { salesChartsRoutes } from './routes.ts';
