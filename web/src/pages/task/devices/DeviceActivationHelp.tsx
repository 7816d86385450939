import { Button, Empty, Typography } from 'antd';
import { PlusOutlined } from '../../../shared/icons.tsx';
import { fill, messages } from '@huiyun/contract';

const m = messages.device;

/**
 * 设备列表 with no device yet: how a phone gets here — a code, the sending app, this
 * server's address — and, for whoever may make codes, the button that makes one.
 */
export function DeviceActivationHelp({ onMakeCode }: { onMakeCode?: () => void }) {
  return (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<Typography.Text strong>{m.emptyTitle}</Typography.Text>}>
      <section aria-label={m.emptyTitle} style={{ maxWidth: 560, margin: '0 auto', textAlign: 'left' }}>
        <ol style={{ paddingInlineStart: 20, marginBottom: 8 }}>
          <li>{m.emptyStepCode}</li>
          <li>{m.emptyStepApp}</li>
          <li>{m.emptyStepDone}</li>
        </ol>
        <Typography.Paragraph copyable={{ text: window.location.origin }} style={{ marginBottom: 8 }}>
          {fill(m.emptyServer, { url: window.location.origin })}
        </Typography.Paragraph>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
          {m.emptyProtocol}
        </Typography.Paragraph>
      </section>
      {onMakeCode ? (
        <Button type="primary" icon={<PlusOutlined />} onClick={onMakeCode}>
          {m.makeCode}
        </Button>
      ) : (
        <Typography.Text type="secondary">{m.emptyAskAdmin}</Typography.Text>
      )}
    </Empty>
  );
}
