import { Alert, Typography } from 'antd';
import { fill, messages } from '@huiyun/contract';
import { SecretOnceDialog } from '../../../components/SecretOnceDialog.tsx';

const m = messages.machine;

export type ShownKey = { machineNo: string; terminalKey: string };

/** Shows a machine's terminal key once (after 新增 or 重置密钥), like a temporary password. */
export function TerminalKeyDialog({ shown, onClose }: { shown: ShownKey | null; onClose: () => void }) {
  return (
    <SecretOnceDialog
      secret={shown?.terminalKey ?? null}
      title={shown ? fill(m.keyDialogTitle, { machineNo: shown.machineNo }) : ''}
      notice={
        <>
          <Alert type="warning" showIcon title={m.keyShownOnce} style={{ marginBottom: 16 }} />
          <Typography.Text strong>{m.terminalKey}</Typography.Text>
        </>
      }
      secretClass="terminal-key"
      closeText={m.close}
      copy={{ label: m.copy, copied: m.copied, failed: m.copyFailed }}
      onClose={onClose}
    />
  );
}
