import { Table } from 'antd';
import { messages, type ProcessFigures } from '@huiyun/contract';
import { bytes, duration, orDash } from './format.ts';

const m = messages.systemMonitor;

const columns = [
  { key: 'pid', dataIndex: 'pid', title: m.pid, width: 90 },
  { key: 'uptime', title: m.uptime, render: (p: ProcessFigures) => duration(p.uptimeSeconds) },
  { key: 'rss', title: m.rss, align: 'right' as const, render: (p: ProcessFigures) => bytes(p.rss) },
  { key: 'heap', title: m.heap, align: 'right' as const, render: (p: ProcessFigures) => `${bytes(p.heapUsed)} / ${bytes(p.heapTotal)}` },
  { key: 'cpu', title: m.cpu, width: 80, align: 'right' as const, render: (p: ProcessFigures) => `${p.cpuPercent}%` },
  { key: 'eventLoop', title: m.eventLoop, align: 'right' as const, render: (p: ProcessFigures) => `${p.eventLoop.p50} / ${p.eventLoop.p99} / ${p.eventLoop.max} ms` },
  { key: 'connections', title: m.connections, width: 100, align: 'right' as const, render: (p: ProcessFigures) => orDash(p.connections) },
];

/** Each server process (SERVER_WORKERS), one row a process. */
export function ProcessesTable({ processes }: { processes: ProcessFigures[] }) {
  return <Table<ProcessFigures> className="system-monitor-processes" size="small" rowKey="pid" pagination={false} columns={columns} dataSource={processes} />;
}
