import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress.ts';
import { antdCss } from './build/antd-css.ts';
import { antdStyleStrip } from './build/antd-style-strip.ts';
import { antdTableFilter } from './build/antd-table-filter.ts';
import { antdTableSelection } from './build/antd-table-selection.ts';

// web/ whatever the working directory (the config is loaded from a file: URL).
const root = decodeURIComponent(new URL('.', import.meta.url).pathname);
const server = 'http://127.0.0.1:8080';
// echarts' own lib/ folder, which its package exports do not name (数据可视化's 保存为图片-only toolbox)
const echartsLib = path.join(path.dirname(createRequire(import.meta.url).resolve('echarts')), '..', 'lib');

export default defineConfig({
  root,
  plugins: [react(), antdCss(), antdStyleStrip(), antdTableFilter(), antdTableSelection(), precompress()],
  resolve: { alias: [{ find: /^echarts-lib\/(.*)$/, replacement: `${echartsLib}/$1` }] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: { output: { codeSplitting: { groups: [
      { name: 'app', tags: ['$initial'], priority: 3 },
      { name: 'console', test: /[\\/]app[\\/]layout[\\/]ProtectedLayout\.tsx$/, priority: 2 },
      { name: 'list', test: /[\\/]components[\\/]ListPage[\\/]ListPage\.tsx$/, priority: 1 },
    ] } } },
  },
  server: {
    proxy: {
      '/api': server,
      '/sync': server,
      '/upload': server,
      '/download': server,
      '/healthz': server,
    },
  },
});
