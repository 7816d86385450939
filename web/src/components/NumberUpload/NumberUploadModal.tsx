import type { ReactNode } from 'react';
import { Button, Modal } from 'antd';
import { messages } from '@huiyun/contract';

/** The frame of a number-upload dialog: one 关闭 button, no accidental close while a file goes up, never taller than the window. */
export function NumberUploadModal({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {messages.task.close}
        </Button>
      }
      mask={{ closable: false }}
      width={600}
      // Never taller than the window: a long result scrolls inside the dialog, 关闭 stays in view.
      style={{ top: 24 }}
      styles={{ body: { maxHeight: 'calc(100vh - 180px)', overflowY: 'auto', overflowX: 'hidden' } }}
    >
      {children}
    </Modal>
  );
}
