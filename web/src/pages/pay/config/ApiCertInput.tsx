import { Button, Input, Space, Upload } from 'antd';
import { messages } from '@huiyun/contract';
import { UploadOutlined } from '../../../shared/icons.tsx';

const m = messages.payConfig;

/** A certificate file as the 支付配置 stores it: PEM text as it is, anything else (apiclient_cert.p12) in base64. */
async function certificateText(file: File): Promise<string> {
  const text = await file.text();
  if (text.includes('-----BEGIN')) return text.trim();
  // a data: URL is the browser's own base64 of the bytes
  const url = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
  return url.slice(url.indexOf(',') + 1);
}

/**
 * The WeChat v2 merchant API certificate (refunds): uploaded from the merchant's file, or pasted. The value
 * is a secret like the others: a stored one comes back as its mask, kept unless replaced.
 */
export function ApiCertInput({ value, onChange, placeholder, id }: { value?: string; onChange?: (next: string) => void; placeholder?: string; id?: string }) {
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Input.TextArea id={id} rows={3} value={value} onChange={(e) => onChange?.(e.target.value)} placeholder={placeholder} autoComplete="off" spellCheck={false} />
      <Upload
        accept=".p12,.pfx,.pem"
        multiple={false}
        showUploadList={false}
        beforeUpload={(file) => {
          void certificateText(file).then((text) => onChange?.(text));
          return false;
        }}
      >
        <Button icon={<UploadOutlined />}>{m.apiCertUpload}</Button>
      </Upload>
    </Space>
  );
}
