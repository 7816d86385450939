import { Modal, Typography } from 'antd';
import { messages } from '@huiyun/contract';
import { fileUrlWithToken } from '../../../api/files.ts';

const m = messages.task;

/** The generated QR image, to scan and check it is recognised (SPEC §2.14). */
export function QrDialog({ url, onClose }: { url: string | null; onClose: () => void }) {
  return (
    <Modal open={url !== null} title={m.qrTitle} onCancel={onClose} onOk={onClose} okText={m.close} cancelButtonProps={{ hidden: true }} width={400}>
      {url && (
        <div style={{ textAlign: 'center' }}>
          <img src={fileUrlWithToken(url)} alt={m.qrTitle} style={{ width: 320, height: 320 }} />
          <Typography.Paragraph type="secondary">{m.qrGenerated}</Typography.Paragraph>
        </div>
      )}
    </Modal>
  );
}
