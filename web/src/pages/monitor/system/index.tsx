import { useQuery } from '@tanstack/react-query';
import { Col, Descriptions, Row, Space, Table, Typography } from 'antd';
import { fill, messages, REQUEST_WINDOW_MINUTES, type RouteStats } from '@huiyun/contract';
import { fetchSystemSnapshot } from '../../../api/systemMonitor.ts';
import { queryKeys } from '../../../api/queryKeys.ts';
import { Panel } from '../../../components/Panel.tsx';
import { bytes, duration, orDash } from './format.ts';
import { JobRunsTable } from './JobRunsTable.tsx';
import { ProcessesTable } from './ProcessesTable.tsx';

const m = messages.systemMonitor;
const REFRESH_SECONDS = 5;

const routeColumns = [
  { key: 'route', dataIndex: 'route', title: m.route, ellipsis: true },
  { key: 'count', dataIndex: 'count', title: m.count, width: 90, align: 'right' as const },
  { key: 'errors', dataIndex: 'errors', title: m.errors, width: 80, align: 'right' as const },
  { key: 'p50', dataIndex: 'p50', title: 'p50 (ms)', width: 100, align: 'right' as const },
  { key: 'p95', dataIndex: 'p95', title: 'p95 (ms)', width: 100, align: 'right' as const },
  { key: 'p99', dataIndex: 'p99', title: 'p99 (ms)', width: 100, align: 'right' as const },
];

/** 监控查询: the server's processes, requests, database, Redis, the business and the background jobs, every few seconds. */
export function SystemMonitorPage() {
  const { data } = useQuery({
    queryKey: queryKeys.all('systemMonitor'), queryFn: fetchSystemSnapshot, refetchInterval: REFRESH_SECONDS * 1000, retry: false, meta: { errorText: m.loadFailed },
  });
  const s = data;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} className="system-monitor">
      <Typography.Text type="secondary" className="system-monitor-updated">
        {fill(m.refreshEvery, { seconds: REFRESH_SECONDS })}{s ? `，${m.updatedAt} ${s.time}` : ''}
      </Typography.Text>
      <Row gutter={16}>
        <Col span={12}>
          <Panel title={m.server}>
            <Descriptions column={1} size="small" bordered className="system-monitor-server">
              <Descriptions.Item label={m.version}>{s?.server.version}</Descriptions.Item>
              <Descriptions.Item label={m.uptime}>{s ? duration(s.server.uptimeSeconds) : ''}</Descriptions.Item>
              <Descriptions.Item label={m.node}>{s?.server.node}</Descriptions.Item>
              <Descriptions.Item label={`${m.pid} / ${m.workers}`}>{s ? `${s.server.pid} / ${s.server.workers}` : ''}</Descriptions.Item>
              <Descriptions.Item label={m.rss}>{bytes(s?.server.rss)}</Descriptions.Item>
              <Descriptions.Item label={m.heap}>{s ? `${bytes(s.server.heapUsed)} / ${bytes(s.server.heapTotal)}` : ''}</Descriptions.Item>
              <Descriptions.Item label={m.cpu}>{s ? `${s.server.cpuPercent}%` : ''}</Descriptions.Item>
              <Descriptions.Item label={m.eventLoop}>{s ? `${s.server.eventLoop.p50} / ${s.server.eventLoop.p99} / ${s.server.eventLoop.max} ms` : ''}</Descriptions.Item>
              <Descriptions.Item label={m.connections}>{orDash(s?.server.connections)}</Descriptions.Item>
            </Descriptions>
          </Panel>
        </Col>
        <Col span={12}>
          <Space orientation="vertical" size={16} style={{ width: '100%' }}>
            <Panel title={m.business}>
              <Descriptions column={2} size="small" bordered className="system-monitor-business">
                <Descriptions.Item label={m.devicesOnline}>{orDash(s?.business.devicesOnline)}</Descriptions.Item>
                <Descriptions.Item label={m.sentLastMinute}>{orDash(s?.business.sentLastMinute)}</Descriptions.Item>
                <Descriptions.Item label={m.machinesOnline}>{orDash(s?.business.machinesOnline)}</Descriptions.Item>
                <Descriptions.Item label={m.ordersPerMinute}>{orDash(s?.business.ordersLastMinute)}</Descriptions.Item>
                <Descriptions.Item label={m.refundsInFlight}>{orDash(s?.business.refundsInFlight)}</Descriptions.Item>
                <Descriptions.Item label={m.alarmsToday}>{orDash(s?.business.alarmsToday)}</Descriptions.Item>
              </Descriptions>
            </Panel>
            <Panel title={m.database}>
              <Descriptions column={1} size="small" bordered className="system-monitor-database">
                <Descriptions.Item label={m.kind}>{s?.database.kind === 'postgres' ? 'PostgreSQL' : s ? 'SQLite' : ''}</Descriptions.Item>
                <Descriptions.Item label={m.size}>{bytes(s?.database.sizeBytes)}</Descriptions.Item>
                <Descriptions.Item label={m.pool}>{s?.database.pool ? `${s.database.pool.total - s.database.pool.idle} / ${s.database.pool.idle} / ${s.database.pool.waiting}` : '—'}</Descriptions.Item>
                <Descriptions.Item label={m.redis}>{s ? (s.redis ? `${m.redisClients} ${s.redis.clients}，${m.redisMemory} ${bytes(s.redis.usedMemory)}` : m.redisOff) : ''}</Descriptions.Item>
              </Descriptions>
            </Panel>
          </Space>
        </Col>
      </Row>
      {s && s.server.processes.length > 1 && (
        <Panel title={fill(m.processes, { count: s.server.processes.length })}>
          <ProcessesTable processes={s.server.processes} />
        </Panel>
      )}
      <Panel title={m.jobs}>
        <JobRunsTable jobs={s?.business.jobs} />
      </Panel>
      <Panel title={fill(m.requests, { minutes: REQUEST_WINDOW_MINUTES })}>
        <Table<RouteStats> className="system-monitor-requests" size="small" rowKey="route" pagination={{ pageSize: 10, showSizeChanger: false }}
          columns={routeColumns} dataSource={s?.requests ?? []} locale={{ emptyText: m.noData }} />
      </Panel>
      <Panel title={m.slowest}>
        {s?.database.slowest
          ? <Table size="small" rowKey="statement" pagination={false} dataSource={s.database.slowest} locale={{ emptyText: m.noData }}
              columns={[{ key: 'statement', dataIndex: 'statement', title: m.statement, ellipsis: true }, { key: 'calls', dataIndex: 'calls', title: m.calls, width: 100 }, { key: 'meanMs', dataIndex: 'meanMs', title: m.meanMs, width: 110 }]} />
          : <Typography.Text type="secondary">{m.slowestNone}</Typography.Text>}
      </Panel>
    </Space>
  );
}
