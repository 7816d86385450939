import { Button, Image, Space, Upload } from 'antd';
import { UploadOutlined } from '../../../shared/icons.tsx';
import { imageExtensions, messages } from '@huiyun/contract';
import { fileUrlWithToken } from '../../../api/files.ts';

const m = messages.task;

type Props = {
  isFile: boolean;
  fileName?: string;
  imgUrl?: string;
  percent: number | null;
  onPick: (file: File) => void;
  id?: string;
};

/** The image (showType 2, 3) or file (4) of a task: pick, upload with progress, preview. */
export function MediaField({ isFile, fileName, imgUrl, percent, onPick, id }: Props) {
  return (
    <Space orientation="vertical" id={id}>
      <Upload
        accept={isFile ? undefined : imageExtensions.join(',')}
        showUploadList={false}
        beforeUpload={(file) => {
          onPick(file);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={percent !== null}>
          {isFile ? m.uploadFile : m.uploadImage}
          {percent !== null ? ` ${percent}%` : ''}
        </Button>
      </Upload>
      {imgUrl && !isFile && <Image src={fileUrlWithToken(imgUrl)} alt={fileName || m.image} width={120} />}
      {imgUrl && isFile && (
        <a href={fileUrlWithToken(imgUrl)} target="_blank" rel="noreferrer">
          {fileName || m.file}
        </a>
      )}
    </Space>
  );
}
