import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { HOME_URL, messages } from '@huiyun/contract';

const m = messages.layout;

function HomeButton() {
  const navigate = useNavigate();
  return (
    <Button type="primary" onClick={() => navigate(HOME_URL)}>
      {m.backHome}
    </Button>
  );
}

/** A screen the user's menu does not hold. */
export function ForbiddenPage() {
  return <Result status="403" title={m.forbiddenTitle} subTitle={m.forbidden} extra={<HomeButton />} />;
}

/** An unknown address. */
export function NotFoundPage() {
  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
      <Result status="404" title={m.notFoundTitle} subTitle={m.notFound} extra={<HomeButton />} />
    </div>
  );
}

/** Screens later versions build (SPEC §2.1 routes not yet real). */
export function ComingSoonPage({ name }: { name: string }) {
  return <Result status="info" title={name} subTitle={m.comingSoon} extra={<HomeButton />} />;
}

/** The signed-in console could not load the user (menus, permissions): the server's text and 重试. */
export function UserLoadFailedPage({ text, onRetry }: { text: string; onRetry: () => void }) {
  return <Result status="error" subTitle={text} extra={<Button onClick={onRetry}>{m.retry}</Button>} />;
}
