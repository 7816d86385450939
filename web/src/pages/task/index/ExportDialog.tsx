import { useEffect, useState } from 'react';
import { Form, Modal } from 'antd';
import { messages, TaskExportType, taskExportTypeOptions, type Task } from '@huiyun/contract';
import { exportTaskUrl } from '../../../api/task.ts';
import { RadioGroup } from '../../../components/RadioGroup.tsx';

const m = messages.task;

/** 导出记录: all / unsent (default) / sent numbers of one task, downloaded by the browser (SPEC §7.1). */
export function ExportDialog({ task, onClose }: { task: Task | null; onClose: () => void }) {
  const [exportType, setExportType] = useState<number>(TaskExportType.unsent);
  useEffect(() => {
    if (task) setExportType(TaskExportType.unsent);
  }, [task]);

  const start = () => {
    if (!task) return;
    // A navigation, so a million numbers stream to disk instead of into the page's memory.
    const link = document.createElement('a');
    link.href = exportTaskUrl(task.taskId, exportType);
    link.download = '';
    document.body.appendChild(link);
    link.click();
    link.remove();
    onClose();
  };

  return (
    <Modal open={task !== null} title={m.exportRecords} okText={messages.common.ok} cancelText={messages.common.cancel} onOk={start} onCancel={onClose}>
      <Form layout="vertical" name="task-export">
        <Form.Item label={m.taskName}>{task?.taskName}</Form.Item>
        <Form.Item label={m.exportType}>
          <RadioGroup label={m.exportType} options={taskExportTypeOptions} value={exportType} onChange={(e) => setExportType(Number(e.target.value))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
