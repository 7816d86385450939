import { Modal, Typography } from 'antd';
import { fill, messages } from '@huiyun/contract';

const m = messages.user;

export type ShownPassword = { userName: string; password: string };

/** Shows a temporary password once (new account or 重置密码); it is never shown again. */
export function PasswordDialog({ shown, onClose }: { shown: ShownPassword | null; onClose: () => void }) {
  return (
    <Modal
      open={shown !== null}
      title={m.tempPasswordTitle}
      okText={messages.common.ok}
      onOk={onClose}
      onCancel={onClose}
      cancelButtonProps={{ style: { display: 'none' } }}
      maskClosable={false}
      destroyOnHidden
    >
      {shown && (
        <>
          <Typography.Paragraph>{fill(m.tempPasswordNotice, { userName: shown.userName })}</Typography.Paragraph>
          <Typography.Text code copyable className="temp-password" style={{ fontSize: 18 }}>
            {shown.password}
          </Typography.Text>
        </>
      )}
    </Modal>
  );
}
