import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { ProcessFigures } from '@huiyun/contract';

// This process: uptime, memory, CPU since the last look, the event loop's delay (perf_hooks histogram, reset
// at each look), the open HTTP connections. (With SERVER_WORKERS each process answers its own: routes.ts.)

export const version = (JSON.parse(readFileSync(new URL('../../../../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? 'dev';

export class ProcessStats {
  private readonly loop = monitorEventLoopDelay({ resolution: 20 });
  private lastCpu = process.cpuUsage();
  private lastAt = performance.now();
  private readonly app: FastifyInstance;
  constructor(app: FastifyInstance) {
    this.app = app;
    this.loop.enable();
  }
  stop() {
    this.loop.disable();
  }

  async figures(): Promise<ProcessFigures> {
    const memory = process.memoryUsage();
    const cpu = process.cpuUsage(this.lastCpu);
    const now = performance.now();
    const cpuPercent = Math.round(((cpu.user + cpu.system) / 1000 / Math.max(1, now - this.lastAt)) * 1000) / 10;
    this.lastCpu = process.cpuUsage();
    this.lastAt = now;
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const eventLoop = { p50: ms(this.loop.percentile(50)), p99: ms(this.loop.percentile(99)), max: ms(this.loop.max) };
    this.loop.reset();
    const connections = await new Promise<number | null>((resolve) => {
      if (!this.app.server.listening) return resolve(null);
      this.app.server.getConnections((error, count) => resolve(error ? null : count));
    });
    return {
      pid: process.pid, uptimeSeconds: Math.round(process.uptime()),
      rss: memory.rss, heapUsed: memory.heapUsed, heapTotal: memory.heapTotal, cpuPercent, eventLoop, connections,
    };
  }
}
