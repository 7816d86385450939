import { useEffect, useState } from 'react';
import { App, Descriptions, Modal, Progress, Typography, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { carrierKeys, carrierOptions, messages, UploadKind, type Task, type UploadTaskDataResult } from '@huiyun/contract';
import { errorText } from '../../../api/client.ts';
import { storedFileUrl, uploadFile, uploadTaskData } from '../../../api/task.ts';

const m = messages.task;

/** 上传号码: a .txt file goes up with a progress bar, then the server adds its numbers and reports the split. */
export function UploadDialog({ task, queryKey, onClose }: { task: Task | null; queryKey: string; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [percent, setPercent] = useState<number | null>(null);
  const [result, setResult] = useState<UploadTaskDataResult | null>(null);

  useEffect(() => {
    if (task) {
      setPercent(null);
      setResult(null);
    }
  }, [task]);

  const send = async (file: File) => {
    if (!task) return;
    setResult(null);
    setPercent(0);
    try {
      const [stored] = await uploadFile(file, UploadKind.numbers, setPercent, m.uploadFailed);
      if (!stored) throw new Error(m.uploadFailed);
      const answer = await uploadTaskData({
        taskId: task.taskId,
        fileNo: stored.fileNo,
        fileName: stored.fileName,
        fileUrl: storedFileUrl(stored.filePath),
      });
      void message.success(answer.msg);
      setResult(answer.result);
      await queryClient.invalidateQueries({ queryKey: [queryKey] });
    } catch (error) {
      const text = errorText(error, m.uploadFailed);
      if (text) void message.error(text);
    } finally {
      setPercent(null);
    }
  };

  return (
    <Modal
      open={task !== null}
      title={`${m.uploadNumbers} - ${task?.taskName ?? ''}`}
      okText={m.close}
      onOk={onClose}
      onCancel={onClose}
      cancelButtonProps={{ hidden: true }}
      maskClosable={false}
      width={600}
    >
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
          void send(file);
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
      {result && <UploadResult result={result} />}
    </Modal>
  );
}

function UploadResult({ result }: { result: UploadTaskDataResult }) {
  const split = carrierOptions.map((c) => `${c.label} ${result.byCarrier[carrierKeys[c.value]] ?? 0}`).join(' | ');
  return (
    <Descriptions title={m.uploadResult} column={2} size="small" bordered style={{ marginTop: 16 }} className="task-upload-result">
      <Descriptions.Item label={m.resultValid}>{result.valid}</Descriptions.Item>
      <Descriptions.Item label={m.resultDuplicates}>{result.duplicates}</Descriptions.Item>
      <Descriptions.Item label={m.resultInvalid}>{result.invalid}</Descriptions.Item>
      <Descriptions.Item label={m.resultBlocked}>{result.blocked}</Descriptions.Item>
      <Descriptions.Item label={m.resultByCarrier} span={2}>
        {split}
      </Descriptions.Item>
      {result.invalidSamples.length > 0 && (
        <Descriptions.Item label={m.resultInvalidSamples} span={2}>
          {result.invalidSamples.map((s) => (
            <Typography.Text key={`${s.line}-${s.text}`} code style={{ display: 'block' }}>
              {`${s.line}: ${s.text}`}
            </Typography.Text>
          ))}
        </Descriptions.Item>
      )}
    </Descriptions>
  );
}
