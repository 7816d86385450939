import { Alert, Button, Modal, Typography } from 'antd';
import { fill, messages } from '@huiyun/contract';
import { useToast } from '../../../shared/toast.tsx';

const m = messages.machine;

export type ShownKey = { machineNo: string; terminalKey: string };

/**
 * Shows a machine's terminal key once (after 新增 or 重置密钥), like a temporary password: the server
 * keeps it sealed and never answers it again, so the dialog closes only through its button.
 */
export function TerminalKeyDialog({ shown, onClose }: { shown: ShownKey | null; onClose: () => void }) {
  const message = useToast();
  const copy = async () => {
    if (!shown) return;
    try {
      await navigator.clipboard.writeText(shown.terminalKey);
      void message.success(m.copied);
    } catch {
      void message.error(m.copyFailed);
    }
  };
  return (
    <Modal
      open={shown !== null}
      title={shown ? fill(m.keyDialogTitle, { machineNo: shown.machineNo }) : ''}
      onCancel={onClose}
      closable={false}
      keyboard={false}
      maskClosable={false}
      destroyOnHidden
      footer={[
        <Button key="copy" onClick={() => void copy()}>{m.copy}</Button>,
        <Button key="close" type="primary" onClick={onClose}>{m.close}</Button>,
      ]}
    >
      {shown && (
        <>
          <Alert type="warning" showIcon title={m.keyShownOnce} style={{ marginBottom: 16 }} />
          <Typography.Text strong>{m.terminalKey}</Typography.Text>
          <Typography.Paragraph>
            <Typography.Text code className="terminal-key" style={{ fontSize: 15, wordBreak: 'break-all', userSelect: 'all' }}>
              {shown.terminalKey}
            </Typography.Text>
          </Typography.Paragraph>
        </>
      )}
    </Modal>
  );
}
