import type { ReactNode } from 'react';
import { Button, Modal, Typography } from 'antd';
import { useToast } from '../shared/toast.tsx';

type Props = {
  /** The secret; null while the dialog is closed. */
  secret: string | null;
  title: string;
  /** What stands above the secret: whose it is, and that it is shown this once. */
  notice: ReactNode;
  /** The class the secret's text carries (the e2e specs read it by it). */
  secretClass: string;
  closeText: string;
  /** A 复制 button with its texts; without it the secret carries antd's copy icon. */
  copy?: { label: string; copied: string; failed: string };
  onClose: () => void;
};

/**
 * Shows a secret once (a temporary password, a terminal key): the server keeps it hashed or sealed and
 * never answers it again, so the dialog closes only through its button, never by a stray click or Esc.
 */
export function SecretOnceDialog({ secret, title, notice, secretClass, closeText, copy, onClose }: Props) {
  const message = useToast();
  const copySecret = async () => {
    if (secret === null || !copy) return;
    try {
      await navigator.clipboard.writeText(secret);
      void message.success(copy.copied);
    } catch {
      void message.error(copy.failed);
    }
  };
  return (
    <Modal
      open={secret !== null}
      title={title}
      onCancel={onClose}
      closable={false}
      keyboard={false}
      mask={{ closable: false }}
      destroyOnHidden
      footer={[
        ...(copy ? [<Button key="copy" onClick={() => void copySecret()}>{copy.label}</Button>] : []),
        <Button key="close" type="primary" onClick={onClose}>{closeText}</Button>,
      ]}
    >
      {secret !== null && (
        <>
          {notice}
          <Typography.Paragraph>
            <Typography.Text code copyable={!copy} className={secretClass} style={{ fontSize: 16, wordBreak: 'break-all', userSelect: 'all' }}>
              {secret}
            </Typography.Text>
          </Typography.Paragraph>
        </>
      )}
    </Modal>
  );
}
