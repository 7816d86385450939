import { useEffect } from 'react';
import { App, Button, Form, Input, InputNumber, Modal, Select, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { authCodeSave, fill, messages, randomAuthCode, type AuthCodeSave } from '@huiyun/contract';
import { errorText } from '../../../api/client.ts';
import { listTaskUsers, saveAuthCode } from '../../../api/authcode.ts';
import { zodRule } from '../../../components/ListPage/index.ts';
import { useServerAction } from '../../../components/ListPage/useServerAction.ts';

const m = messages.authcode;
const FORM = 'authcode-add';
const rule = (field: keyof AuthCodeSave) => [zodRule(authCodeSave, field)];

/** 新增授权码: owner, code (typed or 随机生成), quantity and validity days. */
export function AddAuthCodeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const owners = useQuery({ queryKey: ['authcode-owners'], queryFn: listTaskUsers, enabled: open, staleTime: 0, retry: false });
  const saver = useServerAction('authcode', saveAuthCode);

  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);
  useEffect(() => {
    if (!open || !owners.error) return;
    const text = errorText(owners.error, m.loadFailed);
    if (text) void message.error(text);
  }, [open, owners.error, message]);

  const submit = async () => {
    try {
      await form.validateFields();
    } catch {
      return; // the field messages are showing
    }
    const parsed = authCodeSave.safeParse(form.getFieldsValue());
    if (!parsed.success) return;
    if (await saver.run(parsed.data, m.saveFailed)) onClose();
  };

  const generate = () => {
    form.setFieldValue('authCode', randomAuthCode());
    void form.validateFields(['authCode']);
  };

  return (
    <Modal
      open={open}
      title={fill(messages.common.addTitle, { name: m.entityName })}
      okText={messages.common.save}
      cancelText={messages.common.cancel}
      confirmLoading={saver.pending}
      onOk={() => void submit()}
      onCancel={onClose}
      maskClosable={false}
      forceRender
    >
      <Form form={form} name={FORM} layout="vertical" onFinish={() => void submit()}>
        <Form.Item name="authUserId" label={m.owner} required rules={rule('authUserId')}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            loading={owners.isFetching}
            placeholder={fill(messages.common.selectPlaceholder, { label: m.owner })}
            options={(owners.data ?? []).map((u) => ({ value: u.userId, label: u.userName }))}
          />
        </Form.Item>
        <Form.Item label={m.authCode} required htmlFor={`${FORM}_authCode`}>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="authCode" noStyle rules={rule('authCode')}>
              <Input placeholder={fill(messages.common.inputPlaceholder, { label: m.authCode })} maxLength={32} />
            </Form.Item>
            <Button onClick={generate}>{m.random}</Button>
          </Space.Compact>
        </Form.Item>
        <Form.Item name="dueNum" label={m.quantity} required rules={rule('dueNum')}>
          <InputNumber style={{ width: '100%' }} min={0} precision={0} placeholder={fill(messages.common.inputPlaceholder, { label: m.quantity })} />
        </Form.Item>
        <Form.Item name="dueDateNum" label={m.validDays} required rules={rule('dueDateNum')}>
          <InputNumber style={{ width: '100%' }} min={1} precision={0} placeholder={fill(messages.common.inputPlaceholder, { label: m.validDays })} />
        </Form.Item>
        <button type="submit" hidden aria-hidden />
      </Form>
    </Modal>
  );
}
