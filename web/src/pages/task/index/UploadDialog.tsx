import { useEffect } from 'react';
import { Descriptions } from 'antd';
import { carrierKeys, carrierOptions, messages, type Task, type UploadTaskDataResult } from '@huiyun/contract';
import { uploadTaskData } from '../../../api/task.ts';
import { InvalidSamples, NumberFileDropzone, NumberUploadModal, useNumberFileUpload } from '../../../components/NumberUpload/index.ts';
import type { Entity } from '../../../api/queryKeys.ts';

const m = messages.task;

/** 上传号码: a .txt file goes up with a progress bar, then the server adds its numbers and reports the split. */
export function UploadDialog({ task, queryKey, onClose }: { task: Task | null; queryKey: Entity; onClose: () => void }) {
  const upload = useNumberFileUpload<UploadTaskDataResult>({
    submit: (file) => uploadTaskData({ taskId: task!.taskId, ...file }),
    queryKey,
    failText: m.uploadFailed,
  });
  const { reset } = upload;

  useEffect(() => {
    if (task) reset();
  }, [task, reset]);

  return (
    <NumberUploadModal open={task !== null} title={`${m.uploadNumbers} - ${task?.taskName ?? ''}`} onClose={onClose}>
      <NumberFileDropzone percent={upload.percent} onFile={(file) => void upload.send(file)} />
      {upload.result && <UploadResult result={upload.result} />}
    </NumberUploadModal>
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
          <InvalidSamples samples={result.invalidSamples} />
        </Descriptions.Item>
      )}
    </Descriptions>
  );
}
