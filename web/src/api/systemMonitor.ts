import { messages, type SystemSnapshot } from '@huiyun/contract';
import { request } from './client.ts';

// 监控查询 (server/src/modules/monitor/server/routes.ts).
export async function fetchSystemSnapshot(): Promise<SystemSnapshot> {
  return (await request<SystemSnapshot>('/api/SystemMonitor/snapshot', { failText: messages.systemMonitor.loadFailed })).data!;
}
