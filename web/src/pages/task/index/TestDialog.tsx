import { Form, Input, InputNumber } from 'antd';
import { fill, messages, taskTestSave, type Task } from '@huiyun/contract';
import { saveTestNumber } from '../../../api/task.ts';
import { FormDialog, SchemaField } from '../../../components/FormDialog/index.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';
import type { Entity } from '../../../api/queryKeys.ts';

const m = messages.task;

type TestForm = { testNum: number; testPhone: string };

/** 插入测试号码 (administrators): every testNum numbers the engine also sends to testPhone. */
export function TestDialog({ task, queryKey, onClose }: { task: Task | null; queryKey: Entity; onClose: () => void }) {
  const saver = useServerAction(queryKey, saveTestNumber);

  const save = async (values: TestForm) =>
    task !== null && saver.run({ taskId: task.taskId, testNum: values.testNum, testPhone: values.testPhone.trim() }, m.testFailed);

  return (
    <FormDialog<TestForm>
      open={task !== null}
      title={m.insertTest}
      name="task-test"
      schema={taskTestSave}
      values={task ? { testNum: task.testNum || undefined, testPhone: task.testPhone } : undefined}
      onFinish={save}
      onClose={onClose}
    >
      <Form.Item label={m.taskName}>{task?.taskName}</Form.Item>
      <SchemaField name="testNum" label={m.testNum}>
        <InputNumber controls={false} min={1} precision={0} style={{ width: '100%' }} placeholder={fill(messages.common.inputPlaceholder, { label: m.testNum })} />
      </SchemaField>
      <SchemaField name="testPhone" label={m.testPhone} required rules={[{ required: true, whitespace: true, message: m.testPhoneRequired }]}>
        <Input placeholder={fill(messages.common.inputPlaceholder, { label: m.testPhone })} allowClear maxLength={11} />
      </SchemaField>
    </FormDialog>
  );
}
