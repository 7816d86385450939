import type { ReactNode } from 'react';
import { Modal } from 'antd';
import { messages } from '@huiyun/contract';

/** The frame of a number-upload dialog: one 关闭 button, no accidental close while a file goes up. */
export function NumberUploadModal({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  return (
    <Modal
      open={open}
      title={title}
      okText={messages.task.close}
      onOk={onClose}
      onCancel={onClose}
      cancelButtonProps={{ hidden: true }}
      maskClosable={false}
      width={600}
    >
      {children}
    </Modal>
  );
}
