import { taskSave, type Task } from '@huiyun/contract';
import { FormDialog } from '../../../components/FormDialog/index.ts';
import { QrDialog } from './QrDialog.tsx';
import { TaskBasicsFields, TaskDeviceFields, TaskMediaFields, TaskNumberFields, TaskQrField, TaskSendWindowFields } from './TaskFieldGroups.tsx';
import type { TaskFormValues } from './taskForm.ts';
import { useTaskDialog } from './useTaskDialog.ts';
import type { EditDialogProps } from '../../../components/ListPage/index.ts';
import { useCurrentUser } from '../../../shared/useCurrentUser.ts';

/** 新增任务 / 编辑任务 (任务列表's ListPage dialog): fields per showType (SPEC §4), devices, image / file upload, QR preview. */
export function TaskDialog({ open, editing, onClose }: EditDialogProps<Task>) {
  // The caller's own userId: another owner's task lists that owner's devices.
  const me = useCurrentUser().data;
  const task = useTaskDialog({ open, editing, currentUserId: me?.userId, queryKey: 'task' });
  return (
    <FormDialog<TaskFormValues>
      open={open}
      title={task.title}
      name="task-edit"
      form={task.form}
      schema={taskSave}
      values={task.values}
      onFinish={task.save}
      onClose={onClose}
      width={760}
    >
      <TaskBasicsFields showType={task.showType} showsContent={task.shows.content} />
      <TaskMediaFields shown={task.shows.image} isFile={task.isFile} percent={task.media.percent} onPick={(file) => void task.media.upload(file)} />
      <TaskQrField pending={task.qr.pending} onGenerate={() => void task.qr.generate()} />
      <TaskNumberFields />
      <TaskSendWindowFields />
      <TaskDeviceFields options={task.devices.options} loading={task.devices.loading} cannotSend={task.devices.cannotSend} />
      <QrDialog url={task.qr.url} onClose={task.qr.close} />
    </FormDialog>
  );
}
