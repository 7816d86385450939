import { Button, Card, Checkbox, Form, Input, Typography } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { messages } from '@huiyun/contract';
import { useLogin, type LoginForm } from './useLogin.ts';

const m = messages.login;

/** The sign-in screen (SPEC §2.2, §5). */
export function LoginPage() {
  const { loading, initialValues, submit, invalid } = useLogin();
  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'grid',
        placeItems: 'center',
        padding: 24,
        background: 'linear-gradient(135deg, #0b1f3a 0%, #163d73 55%, #1668dc 100%)',
      }}
    >
      <Card style={{ width: 380, boxShadow: '0 12px 40px rgba(0,0,0,0.25)' }} styles={{ body: { padding: 32 } }}>
        <div style={{ textAlign: 'center', marginBottom: 28 }}>
          <Typography.Title level={2} style={{ marginBottom: 4 }}>
            {m.title}
          </Typography.Title>
          <Typography.Text type="secondary">{m.subtitle}</Typography.Text>
        </div>
        <Form<LoginForm> name="login" size="large" initialValues={initialValues} onFinish={submit} onFinishFailed={invalid}>
          <Form.Item name="userName" rules={[{ required: true, whitespace: true, message: m.accountRequired }]}>
            <Input prefix={<UserOutlined />} placeholder={m.accountPlaceholder} autoComplete="username" autoFocus={!initialValues.userName} />
          </Form.Item>
          <Form.Item name="passwd" rules={[{ required: true, message: m.passwordRequired }]}>
            <Input.Password prefix={<LockOutlined />} placeholder={m.passwordPlaceholder} autoComplete="current-password" autoFocus={Boolean(initialValues.userName)} />
          </Form.Item>
          <Form.Item name="remember" valuePropName="checked">
            <Checkbox>{m.remember}</Checkbox>
          </Form.Item>
          <Form.Item style={{ marginBottom: 0 }}>
            <Button type="primary" htmlType="submit" block loading={loading}>
              {m.submit}
            </Button>
          </Form.Item>
        </Form>
      </Card>
    </div>
  );
}
