import { Typography } from 'antd';
import { fill, messages } from '@huiyun/contract';
import { SecretOnceDialog } from '../../../components/SecretOnceDialog.tsx';

const m = messages.user;

export type ShownPassword = { userName: string; password: string };

/** Shows a temporary password once (new account or 重置密码); it is never shown again. */
export function PasswordDialog({ shown, onClose }: { shown: ShownPassword | null; onClose: () => void }) {
  return (
    <SecretOnceDialog
      secret={shown?.password ?? null}
      title={m.tempPasswordTitle}
      notice={shown && <Typography.Paragraph>{fill(m.tempPasswordNotice, { userName: shown.userName })}</Typography.Paragraph>}
      secretClass="temp-password"
      closeText={messages.common.ok}
      onClose={onClose}
    />
  );
}
