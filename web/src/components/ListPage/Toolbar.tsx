import type { ReactNode } from 'react';
import { Button, Space } from 'antd';
import { DeleteOutlined, DownloadOutlined, PlusOutlined } from '../../shared/icons.tsx';
import { messages } from '@huiyun/contract';

type Props = {
  onAdd?: () => void;
  onDelete?: () => void;
  deleteDisabled?: boolean;
  onExport?: () => void;
  exporting?: boolean;
  extra?: ReactNode[];
};

/** 新增, 删除 (the selected rows), 导出 and the screen's own buttons. */
export function Toolbar({ onAdd, onDelete, deleteDisabled, onExport, exporting, extra }: Props) {
  if (!onAdd && !onDelete && !onExport && !extra?.length) return null;
  return (
    <Space wrap className="list-toolbar" style={{ marginBottom: 16 }}>
      {onAdd && (
        <Button type="primary" icon={<PlusOutlined />} onClick={onAdd}>
          {messages.common.add}
        </Button>
      )}
      {onDelete && (
        <Button danger icon={<DeleteOutlined />} onClick={onDelete} disabled={deleteDisabled}>
          {messages.common.delete}
        </Button>
      )}
      {onExport && (
        <Button icon={<DownloadOutlined />} onClick={onExport} loading={exporting}>
          {messages.common.export}
        </Button>
      )}
      {extra}
    </Space>
  );
}
