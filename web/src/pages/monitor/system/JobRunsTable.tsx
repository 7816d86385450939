import { Table, Tag, Typography } from 'antd';
import { messages, type JobRunView } from '@huiyun/contract';

const m = messages.systemMonitor;

const columns = [
  { key: 'job', title: m.job, width: 100, render: (run: JobRunView) => m.jobNames[run.job] },
  { key: 'startTime', dataIndex: 'startTime', title: m.startedAt, width: 170 },
  { key: 'durationMs', dataIndex: 'durationMs', title: m.durationMs, width: 110, align: 'right' as const },
  { key: 'ok', title: m.result, width: 80, render: (run: JobRunView) => <Tag color={run.ok ? 'success' : 'error'}>{run.ok ? m.jobOk : m.jobFailed}</Tag> },
  { key: 'did', title: m.did, render: (run: JobRunView) => (run.ok ? run.summary : <Typography.Text type="danger">{run.error}</Typography.Text>) },
  { key: 'pid', dataIndex: 'pid', title: m.pid, width: 90 },
  {
    key: 'lastFailure', title: m.lastFailure, width: 240,
    render: (run: JobRunView) => (run.failTime ? <Typography.Text type="secondary" ellipsis={{ tooltip: run.failError }}>{`${run.failTime} ${run.failError}`}</Typography.Text> : '—'),
  },
];

/** The background jobs' last runs: when, how long, what each did or why it failed, and its last failure. */
export function JobRunsTable({ jobs }: { jobs: JobRunView[] | undefined }) {
  return <Table<JobRunView> className="system-monitor-jobs" size="small" rowKey="job" pagination={false} columns={columns} dataSource={jobs ?? []} locale={{ emptyText: m.jobsNone }} />;
}
