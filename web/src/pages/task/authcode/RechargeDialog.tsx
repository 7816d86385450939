import { useEffect } from 'react';
import { Form, InputNumber, Modal, Typography } from 'antd';
import { authCodeRecharge, messages, type AuthCode } from '@huiyun/contract';
import { rechargeAuthCode } from '../../../api/authcode.ts';
import { firstIssue, zodRule } from '../../../components/ListPage/index.ts';
import { useServerAction } from '../../../components/ListPage/useServerAction.ts';

const m = messages.authcode;

/** 充值: adds a quantity and validity days to one code (the rule is stated in the dialog). */
export function RechargeDialog({ code, onClose }: { code: AuthCode | null; onClose: () => void }) {
  const [form] = Form.useForm();
  const saver = useServerAction('authcode', rechargeAuthCode);
  const open = code !== null;

  useEffect(() => {
    if (open) {
      form.resetFields();
      form.setFieldsValue({ dueNum: 0, dueDateNum: 0 });
    }
  }, [open, form]);

  const submit = async () => {
    if (!code) return;
    try {
      await form.validateFields();
    } catch {
      return;
    }
    const parsed = authCodeRecharge.safeParse({ id: code.id, ...form.getFieldsValue() });
    if (!parsed.success) {
      const text = firstIssue(authCodeRecharge, { id: code.id, ...form.getFieldsValue() });
      form.setFields([{ name: 'dueNum', errors: text ? [text] : [] }]);
      return;
    }
    if (await saver.run(parsed.data, m.rechargeFailed)) onClose();
  };

  return (
    <Modal
      open={open}
      title={m.rechargeTitle}
      okText={messages.common.save}
      cancelText={messages.common.cancel}
      confirmLoading={saver.pending}
      onOk={() => void submit()}
      onCancel={onClose}
      maskClosable={false}
      forceRender
    >
      <Form form={form} name="authcode-recharge" layout="vertical" onFinish={() => void submit()}>
        <Form.Item label={m.authCode}>
          <Typography.Text strong>{code?.authCode}</Typography.Text>
          <Typography.Text type="secondary">{` ${m.dueNum} ${code?.dueNum ?? ''} · ${m.dueDateStr} ${code?.dueDateStr ?? ''}`}</Typography.Text>
        </Form.Item>
        <Form.Item name="dueNum" label={m.rechargeNum} required rules={[zodRule(authCodeRecharge, 'dueNum')]}>
          <InputNumber style={{ width: '100%' }} min={0} precision={0} />
        </Form.Item>
        <Form.Item name="dueDateNum" label={m.rechargeDays} required rules={[zodRule(authCodeRecharge, 'dueDateNum')]} extra={m.rechargeHint}>
          <InputNumber style={{ width: '100%' }} min={0} precision={0} />
        </Form.Item>
        <button type="submit" hidden aria-hidden />
      </Form>
    </Modal>
  );
}
