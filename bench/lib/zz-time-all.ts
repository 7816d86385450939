import { StatementSync } from 'node:sqlite';
const original = StatementSync.prototype.all;
let wall = 0n; let cpu = 0; let calls = 0;
StatementSync.prototype.all = function (this: StatementSync, ...args: unknown[]) {
  const t = process.hrtime.bigint(); const c = process.threadCpuUsage();
  try { return (original as Function).apply(this, args); } finally {
    const d = process.threadCpuUsage(c); cpu += d.user + d.system; wall += process.hrtime.bigint() - t; calls++;
  }
} as typeof original;
setInterval(() => {
  if (calls < 1000) return;
  process.stderr.write(`[pid ${process.pid}] all: ${calls} calls, wall ${(Number(wall) / calls / 1000).toFixed(1)} µs, thread CPU ${(cpu / calls).toFixed(1)} µs\n`);
}, 4000).unref();
