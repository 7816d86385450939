import { Alert, Button, List, Modal, Tag } from 'antd';
import { fill, messages, type PayConfigCheckResult } from '@huiyun/contract';

const m = messages.payConfigCheck;

export type ShownCheck = { configName: string; result: PayConfigCheckResult };

/** 检测 that found something to fix: the sentence, then every check with what it proved or what to fix. */
export function CheckResultDialog({ shown, onClose }: { shown: ShownCheck | null; onClose: () => void }) {
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
          <List
            size="small"
            header={m.failedChecks}
            dataSource={shown.result.checks.filter((check) => !check.ok)}
            renderItem={(check) => (
              <List.Item>
                <Tag color="error">{m.checkFailed}</Tag>
                {check.name}：{check.message}
              </List.Item>
            )}
          />
          {shown.result.checks.some((check) => check.ok) && (
            <List
              size="small"
              dataSource={shown.result.checks.filter((check) => check.ok)}
              renderItem={(check) => (
                <List.Item>
                  <Tag color="success">{m.checkPassed}</Tag>
                  {check.name}：{check.message}
                </List.Item>
              )}
            />
          )}
        </div>
      )}
    </Modal>
  );
}
