import { Progress, Upload } from 'antd';
import { InboxOutlined } from '../../shared/icons.tsx';
import { messages } from '@huiyun/contract';
import { useToast } from '../../shared/toast.tsx';

const m = messages.task;

/** The .txt drop zone of a number upload, with the progress bar while `percent` is set. */
export function NumberFileDropzone({ percent, onFile }: { percent: number | null; onFile: (file: File) => void }) {
  const message = useToast();
  return (
    <>
      <Upload.Dragger
        accept=".txt"
        multiple={false}
        showUploadList={false}
        disabled={percent !== null}
        beforeUpload={(file) => {
          if (!file.name.toLowerCase().endsWith('.txt')) {
            void message.error(messages.upload.txtOnly);
            return Upload.LIST_IGNORE;
          }
          onFile(file);
          return false;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{m.chooseTxt}</p>
        <p className="ant-upload-hint">{m.uploadHint}</p>
      </Upload.Dragger>
      {percent !== null && <Progress percent={percent} status="active" style={{ marginTop: 16 }} />}
    </>
  );
}
