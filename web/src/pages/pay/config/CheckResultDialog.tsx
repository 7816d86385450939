import { Alert, Button, Modal, Tag } from 'antd';
import { fill, messages, type PayConfigCheckItem, type PayConfigCheckResult } from '@huiyun/contract';

const m = messages.payConfigCheck;

export type ShownCheck = { configName: string; result: PayConfigCheckResult };

/** 检测 that found something to fix: the sentence, the failed checks each naming the field to fix, then what passed. */
export function CheckResultDialog({ shown, onClose }: { shown: ShownCheck | null; onClose: () => void }) {
  // failed first: what to fix is read before what was proved
  const checks = shown ? [...shown.result.checks].sort((a, b) => Number(a.ok) - Number(b.ok)) : [];
  return (
    <Modal
      open={shown !== null}
      title={fill(m.resultTitle, { name: shown?.configName ?? '' })}
      onCancel={onClose}
      destroyOnHidden
      footer={<Button onClick={onClose}>{m.close}</Button>}
    >
      {shown && (
        <div className="pay-config-check">
          <Alert type={shown.result.ok ? 'success' : 'error'} showIcon title={shown.result.message} style={{ marginBottom: 16 }} />
          <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {checks.map((check, i) => <CheckLine key={i} check={check} />)}
          </ul>
        </div>
      )}
    </Modal>
  );
}

function CheckLine({ check }: { check: PayConfigCheckItem }) {
  return (
    <li className={check.ok ? 'check-passed' : 'check-failed'} style={{ padding: '6px 0' }}>
      <Tag color={check.ok ? 'success' : 'error'}>{check.ok ? m.checkPassed : m.checkFailed}</Tag>
      {check.name}：{check.message}
    </li>
  );
}
