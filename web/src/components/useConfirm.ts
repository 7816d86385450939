import { App } from 'antd';
import { messages } from '@huiyun/contract';
import { useToast } from '../shared/toast.tsx';

export type ConfirmOptions = {
  content: string;
  /** Info text when the user cancels (SPEC §8.1: 已取消 / 已取消删除 / 已取消清除). */
  cancelledText?: string;
  danger?: boolean;
  onOk: () => Promise<void> | void;
  /** Runs after the cancelled text (a caller awaiting the answer). */
  onCancel?: () => void;
};

/** A confirmation dialog: OK runs the action (the dialog waits for it), cancel shows the cancelled text. */
export function useConfirm(): (options: ConfirmOptions) => void {
  const { modal } = App.useApp();
  const message = useToast();
  return ({ content, cancelledText = messages.common.cancelled, danger, onOk, onCancel }) => {
    modal.confirm({
      title: messages.common.confirmTitle,
      content,
      okText: messages.common.ok,
      cancelText: messages.common.cancel,
      okButtonProps: danger ? { danger: true } : undefined,
      onOk: async () => {
        await onOk();
      },
      onCancel: () => {
        void message.info(cancelledText);
        onCancel?.();
      },
    });
  };
}
