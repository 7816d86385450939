import { Button, Checkbox, Form, Input, theme } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { messages } from '@huiyun/contract';
import { useLogin, type LoginForm } from './useLogin.ts';

const m = messages.login;

/** The sign-in screen (SPEC §2.2, §5). */
export function LoginPage() {
  const { loading, initialValues, submit, invalid, messageHolder } = useLogin();
  const { token } = theme.useToken();
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
      {messageHolder}
      {/* Plain elements, not Card and Typography: the login page loads only the components it shows. */}
      <main style={{ width: 380, padding: 32, background: token.colorBgContainer, borderRadius: token.borderRadiusLG, boxShadow: '0 12px 40px rgba(0,0,0,0.25)' }}>
        <div style={{ textAlign: 'center', marginBottom: 28 }}>
          <h1 style={{ margin: '0 0 4px', fontSize: token.fontSizeHeading2, fontWeight: 600, color: token.colorTextHeading }}>{m.title}</h1>
          <span style={{ color: token.colorTextSecondary }}>{m.subtitle}</span>
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
      </main>
    </div>
  );
}
