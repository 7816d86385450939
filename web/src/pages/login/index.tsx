import type { ReactNode } from 'react';
import { Button, Checkbox, Input, theme } from 'antd';
import { EyeInvisibleOutlined, EyeOutlined, LockOutlined, UserOutlined } from '@ant-design/icons';
import { messages } from '@huiyun/contract';
import { useLogin } from './useLogin.ts';
import { useLoginForm } from './useLoginForm.ts';

const m = messages.login;

/**
 * The sign-in screen (SPEC §2.2, §5). Plain elements and a form hook instead of antd's Card, Typography
 * and Form: the first page every visitor loads carries only the components it shows (docs/performance.md).
 */
export function LoginPage() {
  const { loading, initialValues, submit, invalid } = useLogin();
  const form = useLoginForm(initialValues, (values) => void submit(values), invalid);
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
      <main style={{ width: 380, padding: 32, background: token.colorBgContainer, borderRadius: token.borderRadiusLG, boxShadow: '0 12px 40px rgba(0,0,0,0.25)' }}>
        <div style={{ textAlign: 'center', marginBottom: 28 }}>
          <h1 style={{ margin: '0 0 4px', fontSize: token.fontSizeHeading2, fontWeight: 600, color: token.colorTextHeading }}>{m.title}</h1>
          <span style={{ color: token.colorTextSecondary }}>{m.subtitle}</span>
        </div>
        <form name="login" onSubmit={form.submit} noValidate>
          <Field error={form.errors.userName}>
            <Input
              id="login_userName"
              size="large"
              prefix={<UserOutlined aria-hidden />}
              placeholder={m.accountPlaceholder}
              autoComplete="username"
              autoFocus={!initialValues.userName}
              value={form.values.userName}
              status={form.errors.userName ? 'error' : undefined}
              aria-invalid={Boolean(form.errors.userName)}
              onChange={(event) => form.change('userName', event.target.value)}
            />
          </Field>
          <Field error={form.errors.passwd}>
            <Input.Password
              id="login_passwd"
              size="large"
              prefix={<LockOutlined aria-hidden />}
              iconRender={passwordToggleIcon}
              placeholder={m.passwordPlaceholder}
              autoComplete="current-password"
              autoFocus={Boolean(initialValues.userName)}
              value={form.values.passwd}
              status={form.errors.passwd ? 'error' : undefined}
              aria-invalid={Boolean(form.errors.passwd)}
              onChange={(event) => form.change('passwd', event.target.value)}
            />
          </Field>
          <Field>
            <Checkbox checked={form.values.remember} onChange={(event) => form.change('remember', event.target.checked)}>
              {m.remember}
            </Checkbox>
          </Field>
          <Button type="primary" size="large" htmlType="submit" block loading={loading}>
            {m.submit}
          </Button>
        </form>
      </main>
    </div>
  );
}

/** One row of the form with room for its message, spaced like antd's large Form.Item. */
function Field({ error, children }: { error?: string; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div style={{ marginBottom: error ? 0 : 24 }}>
      {children}
      {error && (
        <div role="alert" style={{ color: token.colorError, lineHeight: '24px', minHeight: 24 }}>
          {error}
        </div>
      )}
    </div>
  );
}

/** The show/hide toggle's icon, decorative: antd's own announces an image named 'eye-invisible' inside the 显示 button. */
function passwordToggleIcon(visible: boolean) {
  return visible ? <EyeOutlined aria-hidden /> : <EyeInvisibleOutlined aria-hidden />;
}
