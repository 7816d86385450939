import { useEffect, useState } from 'react';
import { Descriptions, Form } from 'antd';
import { messages, type BlacklistAddResult } from '@huiyun/contract';
import { uploadBlacklist } from '../../../api/blacklist.ts';
import { InvalidSamples, NumberFileDropzone, NumberUploadModal, useNumberFileUpload } from '../../../components/NumberUpload/index.ts';
import type { CompanyOptions } from '../../../components/useCompanyOptions.ts';
import { CompanySelect } from '../../../components/CompanySelect.tsx';
import type { Entity } from '../../../api/queryKeys.ts';

const m = messages.blacklist;

type Props = { open: boolean; queryKey: Entity; companies: CompanyOptions; defaultDeptId: number | undefined; onClose: () => void };

/** 上传号码: a .txt file into a company's list (the caller's own unless it keeps several); shows what was added. */
export function UploadBlacklistDialog({ open, queryKey, companies, defaultDeptId, onClose }: Props) {
  const [deptId, setDeptId] = useState(defaultDeptId);
  const upload = useNumberFileUpload<BlacklistAddResult>({
    submit: (file) => uploadBlacklist({ ...file, deptId }),
    queryKey,
    failText: m.uploadFailed,
  });
  const { reset } = upload;

  useEffect(() => {
    if (!open) return;
    reset();
    setDeptId(defaultDeptId);
  }, [open, reset, defaultDeptId]);

  return (
    <NumberUploadModal open={open} title={m.uploadTitle} onClose={onClose}>
      {companies.many && (
        <Form layout="vertical">
          <Form.Item label={m.dept} htmlFor="blacklist-upload-dept">
            <CompanySelect id="blacklist-upload-dept" companies={companies} value={deptId} onChange={setDeptId} disabled={upload.percent !== null} />
          </Form.Item>
        </Form>
      )}
      <NumberFileDropzone percent={upload.percent} onFile={(file) => void upload.send(file)} />
      {upload.result && <UploadResult result={upload.result} />}
    </NumberUploadModal>
  );
}

function UploadResult({ result }: { result: BlacklistAddResult }) {
  return (
    <Descriptions title={m.uploadResult} column={3} size="small" bordered style={{ marginTop: 16 }} className="blacklist-upload-result">
      <Descriptions.Item label={m.resultAdded}>{result.added}</Descriptions.Item>
      <Descriptions.Item label={m.resultDuplicates}>{result.duplicates}</Descriptions.Item>
      <Descriptions.Item label={m.resultInvalid}>{result.invalid}</Descriptions.Item>
      {result.invalidSamples.length > 0 && (
        <Descriptions.Item label={m.resultInvalidSamples} span={3}>
          <InvalidSamples samples={result.invalidSamples} />
        </Descriptions.Item>
      )}
    </Descriptions>
  );
}
