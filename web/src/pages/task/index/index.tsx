import { lazy, Suspense, useState } from 'react';
import { Button, Tag, Tooltip, Typography } from 'antd';
import { DownloadOutlined } from '../../../shared/icons.tsx';
import { fill, labelOf, messages, Perm, showTypeOptions, TaskStatus, taskStatusOptions, TASK_PAGE_SIZE, type Task } from '@huiyun/contract';
import { deleteTask, listTasks, pauseStartTask, type TaskFilters } from '../../../api/task.ts';
import { ListPage, type ListColumn, type RowAction } from '../../../components/ListPage/index.ts';
import { useOpenedOnce } from '../../../components/useOpenedOnce.ts';
import { useToast } from '../../../shared/toast.tsx';

// The task and number-upload dialogs (uploads, image preview, progress) load the first time they open.
const TaskDialog = lazy(() => import('./TaskDialog.tsx').then((m) => ({ default: m.TaskDialog })));
const UploadDialog = lazy(() => import('./UploadDialog.tsx').then((m) => ({ default: m.UploadDialog })));
const ExportDialog = lazy(() => import('./ExportDialog.tsx').then((m) => ({ default: m.ExportDialog })));
const TestDialog = lazy(() => import('./TestDialog.tsx').then((m) => ({ default: m.TestDialog })));

const m = messages.task;
const QUERY_KEY = 'task';
/** While a visible task runs, devices move its counters: the list follows every few seconds. */
const RUNNING_REFRESH_MS = 5000;

const statusColors: Record<number, string> = {
  [TaskStatus.running]: 'processing',
  [TaskStatus.paused]: 'warning',
  [TaskStatus.completed]: 'success',
};

const split = (total: number, mobile: number, unicom: number, telecom: number, other: number) => (
  <Tooltip title={m.carrierSplitTitle}>{fill(m.carrierSplit, { total, mobile, unicom, telecom, other })}</Tooltip>
);

// At 1366 px: name, status, the two counts, 送达, creator and 操作; type, content, batch size and 未送达 from 1600 px.
const columns: ListColumn<Task>[] = [
  { key: 'taskId', title: m.taskId, width: 80 },
  { key: 'taskName', title: m.taskName, width: 160 },
  { key: 'showType', title: m.showType, width: 100, secondary: true, render: (value: number) => labelOf(showTypeOptions, value) },
  { key: 'content', title: m.content, width: 220, secondary: true, render: (value: string, row) => value || row.fileName },
  {
    key: 'taskStatus',
    title: m.taskStatus,
    width: 90,
    render: (value: number, row) => (
      <>
        <Tag color={statusColors[value]}>{labelOf(taskStatusOptions, value)}</Tag>
        {row.outsideWindow && (
          <Tooltip title={`${m.sendWindow} ${row.sendStartTime}-${row.sendEndTime}`}>
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, whiteSpace: 'nowrap' }}>{m.outsideSendWindow}</Typography.Text>
          </Tooltip>
        )}
      </>
    ),
  },
  { key: 'totalNum', title: m.totalNum, width: 160, render: (_v, r) => split(r.totalNum, r.mcount, r.ucount, r.tcount, r.ocount) },
  { key: 'totalSendNum', title: m.totalSendNum, width: 160, render: (_v, r) => split(r.totalSendNum, r.smcount, r.sucount, r.stcount, r.socount) },
  { key: 'deliveredNum', title: m.delivered, width: 70 },
  { key: 'undeliveredNum', title: m.undelivered, width: 80, secondary: true },
  { key: 'batchSendNum', title: m.batchCount, width: 100, secondary: true, render: (_v, r) => `${r.batchSendNum}-${r.batchSendMaxNum}` },
  { key: 'userName', title: m.userName, width: 100 },
];

type Dialog = { kind: 'upload' | 'export' | 'test'; task: Task | null } | null;

/** 任务列表 (SPEC §2.14): search, add, export, upload numbers, pause / start, insert test number, edit, delete. */
export function TaskPage() {
  const message = useToast();
  const [dialog, setDialog] = useState<Dialog>(null);
  const uploadOpened = useOpenedOnce(dialog?.kind === 'upload');
  const exportOpened = useOpenedOnce(dialog?.kind === 'export');
  const testOpened = useOpenedOnce(dialog?.kind === 'test');
  // Counters move while devices send: refresh the page in the background while a task runs.
  const refreshInterval = (rows: Task[]) => (rows.some((t) => t.taskStatus === TaskStatus.running) ? RUNNING_REFRESH_MS : false);

  const open = (kind: NonNullable<Dialog>['kind']) => (task: Task | null) => setDialog({ kind, task });
  const close = () => setDialog(null);
  const notCompleted = (task: Task) => task.taskStatus !== TaskStatus.completed;

  const rowActions: RowAction<Task>[] = [
    { key: 'upload', label: m.uploadNumbers, permission: Perm.taskUpload, visible: (t) => notCompleted(t), onClick: open('upload') },
    {
      key: 'pause',
      label: m.pause,
      permission: Perm.taskPause, visible: (t) => t.taskStatus === TaskStatus.running,
      confirm: (t) => fill(m.confirmPause, { taskName: t.taskName }),
      run: (t) => pauseStartTask(t.taskId, TaskStatus.paused),
      failText: m.pauseStartFailed,
    },
    {
      key: 'start',
      label: m.start,
      permission: Perm.taskPause, visible: (t) => t.taskStatus === TaskStatus.paused,
      confirm: (t) => fill(m.confirmStart, { taskName: t.taskName }),
      run: (t) => pauseStartTask(t.taskId, TaskStatus.running),
      failText: m.pauseStartFailed,
    },
    // a test number is the administrators' (SPEC §2.14)
    { key: 'test', label: m.insertTest, permission: Perm.taskInsertTest, account: 'administrator', visible: (t) => notCompleted(t), onClick: open('test') },
    // 编辑 keeps its place among the actions (ListPage's own would come first): it opens ListPage's dialog.
    { key: 'edit', label: messages.common.edit, permission: Perm.taskSave, onClick: (t, ctx) => ctx.openEdit(t) },
    {
      key: 'delete',
      label: messages.common.delete,
      danger: true,
      permission: Perm.taskDelete,
      confirm: (t) => fill(m.confirmDelete, { taskName: t.taskName }),
      cancelledText: messages.common.cancelledDelete,
      run: (t) => deleteTask(t.taskId),
      failText: m.deleteFailed,
    },
  ];

  const askExport = (selected: Task[]) => {
    if (selected.length === 0) void message.warning(m.selectOneTask);
    else if (selected.length > 1) void message.warning(m.onlyOneTask);
    else setDialog({ kind: 'export', task: selected[0] });
  };

  return (
    <>
      <ListPage<Task, TaskFilters>
        queryKey={QUERY_KEY}
        rowKey="taskId"
        fetcher={listTasks}
        refreshInterval={refreshInterval}
        columns={columns}
        defaultPageSize={TASK_PAGE_SIZE}
        selectable
        searchFields={[{ name: 'taskName', label: m.taskName }]}
        rowActions={rowActions}
        edit={{ permission: Perm.taskSave, canEdit: false, dialog: TaskDialog }}
        toolbar={[
          {
            key: 'export',
            permission: Perm.taskExport,
            render: (ctx) => (
              <Button icon={<DownloadOutlined />} onClick={() => askExport(ctx.selectedRows)}>
                {messages.common.export}
              </Button>
            ),
          },
        ]}
      />
      {uploadOpened && (
        <Suspense fallback={null}>
          <UploadDialog task={dialog?.kind === 'upload' ? dialog.task : null} queryKey={QUERY_KEY} onClose={close} />
        </Suspense>
      )}
      <Suspense fallback={null}>
        {exportOpened && <ExportDialog task={dialog?.kind === 'export' ? dialog.task : null} onClose={close} />}
        {testOpened && <TestDialog task={dialog?.kind === 'test' ? dialog.task : null} queryKey={QUERY_KEY} onClose={close} />}
      </Suspense>
    </>
  );
}
