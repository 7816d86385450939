import { Button, Form, Input } from 'antd';
import { Panel } from '../../../components/Panel.tsx';
import { messages, passwordChangeRequest } from '@huiyun/contract';
import { zodRule } from '../../../components/FormDialog/index.ts';
import { useUpdatePassword, type PasswordForm } from './useUpdatePassword.ts';

const m = messages.password;

/** 修改密码 (SPEC §2.17): old, new and confirm password. */
export function UpdatePasswordPage() {
  const { form, submit, saving } = useUpdatePassword();
  return (
    <Panel title={m.title}>
      <Form<PasswordForm> form={form} name="updatePasswd" layout="vertical" onFinish={submit} style={{ maxWidth: 420 }}>
        <Form.Item name="oldPasswd" label={m.oldLabel} rules={[{ required: true, message: m.oldRequired }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="passwd"
          label={m.newLabel}
          required
          rules={[zodRule(passwordChangeRequest, 'passwd')]}
          validateFirst
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmPasswd"
          label={m.confirmLabel}
          dependencies={['passwd']}
          rules={[
            { required: true, message: m.confirmRequired },
            ({ getFieldValue }) => ({
              validator: async (_rule, value) => {
                if (value && value !== getFieldValue('passwd')) throw new Error(m.mismatch);
              },
            }),
          ]}
          validateFirst
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={saving}>
            {m.submit}
          </Button>
        </Form.Item>
      </Form>
    </Panel>
  );
}
