import { useEffect } from 'react';
import { Form, Input, InputNumber, Modal } from 'antd';
import { fill, messages, taskTestSave, type Task } from '@huiyun/contract';
import { saveTestNumber } from '../../../api/task.ts';
import { isRequired, zodRule } from '../../../components/ListPage/index.ts';
import { useServerAction } from '../../../components/ListPage/useServerAction.ts';

const m = messages.task;

/** 插入测试号码 (administrators): every testNum numbers the engine also sends to testPhone. */
export function TestDialog({ task, queryKey, onClose }: { task: Task | null; queryKey: string; onClose: () => void }) {
  const [form] = Form.useForm();
  const saver = useServerAction(queryKey, saveTestNumber);

  useEffect(() => {
    if (!task) return;
    form.resetFields();
    form.setFieldsValue({ testNum: task.testNum || undefined, testPhone: task.testPhone });
  }, [task, form]);

  const submit = async () => {
    if (!task) return;
    let values: { testNum: number; testPhone: string };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    if (await saver.run({ taskId: task.taskId, testNum: values.testNum, testPhone: values.testPhone.trim() }, m.testFailed)) onClose();
  };

  return (
    <Modal
      open={task !== null}
      title={m.insertTest}
      okText={messages.common.save}
      cancelText={messages.common.cancel}
      confirmLoading={saver.pending}
      onOk={() => void submit()}
      onCancel={onClose}
      forceRender
      maskClosable={false}
    >
      <Form form={form} name="task-test" layout="vertical" onFinish={() => void submit()}>
        <Form.Item label={m.taskName}>{task?.taskName}</Form.Item>
        <Form.Item name="testNum" label={m.testNum} required={isRequired(taskTestSave, 'testNum')} rules={[zodRule(taskTestSave, 'testNum')]}>
          <InputNumber min={1} precision={0} style={{ width: '100%' }} placeholder={fill(messages.common.inputPlaceholder, { label: m.testNum })} />
        </Form.Item>
        <Form.Item name="testPhone" label={m.testPhone} required rules={[{ required: true, whitespace: true, message: m.testPhoneRequired }, zodRule(taskTestSave, 'testPhone')]} validateFirst>
          <Input placeholder={fill(messages.common.inputPlaceholder, { label: m.testPhone })} allowClear maxLength={11} />
        </Form.Item>
        <button type="submit" hidden aria-hidden />
      </Form>
    </Modal>
  );
}
