import { useEffect, useState } from 'react';
import { App, Button, Col, Form, Image, Input, InputNumber, Modal, Radio, Row, Select, Space, Upload } from 'antd';
import { QrcodeOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  fill,
  imageExtensions,
  messages,
  randomNumOptions,
  randomPositionOptions,
  ShowType,
  showTypeFields,
  showTypeOptions,
  TASK_QR_URL_DEFAULT,
  taskQrRequest,
  taskSave,
  UploadKind,
  type Task,
} from '@huiyun/contract';
import { errorText } from '../../../api/client.ts';
import { fileUrlWithToken, storedFileUrl, uploadFile } from '../../../api/files.ts';
import { generateQrImage, listUserDevices, saveTask } from '../../../api/task.ts';
import { firstIssue, isRequired, zodRule } from '../../../components/ListPage/index.ts';
import { useServerAction } from '../../../components/ListPage/useServerAction.ts';
import { QrDialog } from './QrDialog.tsx';

const m = messages.task;

/** SPEC §9: the values a new task starts with. */
const defaults = {
  showType: ShowType.text,
  singleSendNumDay: 300,
  batchSendNum: 10,
  batchSendMaxNum: 10,
  intervalSeconds: 1,
  clearNum: 0,
  isRandomNum: 0,
  randomPosition: 0,
  qrUrl: TASK_QR_URL_DEFAULT,
  machineCodeList: [] as string[],
  content: '',
  fileNo: '',
  fileName: '',
  imgUrl: '',
};

type Props = {
  open: boolean;
  editing: Task | null;
  /** The caller's own userId: another owner's task lists that owner's devices. */
  currentUserId: number | undefined;
  queryKey: string;
  onClose: () => void;
};

const numberFields = [
  { name: 'singleSendNumDay', label: m.singleSendNumDay, invalid: m.singleSendNumDayInvalid },
  { name: 'intervalSeconds', label: m.intervalSeconds, invalid: m.intervalSecondsInvalid },
  { name: 'batchSendNum', label: m.batchSendNum, invalid: m.batchSendNumInvalid },
  { name: 'batchSendMaxNum', label: m.batchSendMaxNum, invalid: m.batchSendMaxNumInvalid },
  { name: 'clearNum', label: m.clearNum, invalid: m.clearNumInvalid },
] as const;

/** 新增任务 / 编辑任务: fields per showType (SPEC §4), devices, image / file upload, QR preview. */
export function TaskDialog({ open, editing, currentUserId, queryKey, onClose }: Props) {
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const showType = Form.useWatch('showType', form) as number | undefined;
  const imgUrl = Form.useWatch('imgUrl', form) as string | undefined;
  const fileName = Form.useWatch('fileName', form) as string | undefined;
  const [uploadPercent, setUploadPercent] = useState<number | null>(null);
  const [qr, setQr] = useState<{ url: string } | null>(null);
  const [qrPending, setQrPending] = useState(false);
  const saver = useServerAction(queryKey, saveTask);

  const ownerId = editing && editing.userId !== currentUserId ? editing.userId : undefined;
  const devices = useQuery({
    queryKey: ['taskDevices', ownerId ?? 'me'],
    queryFn: () => listUserDevices(ownerId),
    enabled: open,
    retry: false,
  });
  useEffect(() => {
    if (!devices.error) return;
    const text = errorText(devices.error, m.deviceLoadFailed);
    if (text) void message.error(text);
  }, [devices.error, message]);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(editing ? toFormValues(editing) : defaults);
    setUploadPercent(null);
  }, [open, editing, form]);

  const shows = showTypeFields(showType ?? ShowType.text);
  const isFile = showType === ShowType.file;

  const submit = async () => {
    let values: Record<string, unknown>;
    try {
      values = await form.validateFields();
    } catch {
      return; // the field messages are showing
    }
    const input = {
      ...values,
      taskId: editing?.taskId,
      // the test number has its own dialog; saving the form keeps what the task has
      testNum: editing?.testNum ?? 0,
      testPhone: editing?.testPhone ?? '',
    };
    if (await saver.run(input, m.saveFailed)) onClose();
  };

  const generateQr = async () => {
    const qrUrl = String(form.getFieldValue('qrUrl') ?? '').trim();
    const issue = firstIssue(taskQrRequest.shape.qrUrl, qrUrl);
    if (issue) {
      void message.warning(issue);
      return;
    }
    setQrPending(true);
    try {
      const answer = await generateQrImage(qrUrl);
      void message.success(answer.msg);
      setQr({ url: answer.url });
    } catch (error) {
      const text = errorText(error, m.qrFailed);
      if (text) void message.error(text);
    } finally {
      setQrPending(false);
    }
  };

  const uploadMedia = async (file: File) => {
    setUploadPercent(0);
    try {
      const [stored] = await uploadFile(file, isFile ? UploadKind.file : UploadKind.image, setUploadPercent, m.uploadFailed);
      if (!stored) throw new Error(m.uploadFailed);
      form.setFieldsValue({
        fileNo: stored.fileNo,
        fileName: stored.fileName,
        imgUrl: storedFileUrl(stored.filePath),
      });
      void form.validateFields(['imgUrl']).catch(() => undefined);
    } catch (error) {
      const text = errorText(error, m.uploadFailed);
      if (text) void message.error(text);
    } finally {
      setUploadPercent(null);
    }
  };

  const title = fill(editing ? messages.common.editTitle : messages.common.addTitle, { name: m.entityName });
  const deviceOptions = (devices.data ?? []).map((d) => ({ value: d.machineCode, label: d.machineName ? `${d.machineName} (${d.machineCode})` : d.machineCode }));

  return (
    <Modal
      open={open}
      title={title}
      width={760}
      okText={messages.common.save}
      cancelText={messages.common.cancel}
      confirmLoading={saver.pending}
      onOk={() => void submit()}
      onCancel={onClose}
      forceRender
      maskClosable={false}
    >
      <Form form={form} name="task-edit" layout="vertical" onFinish={() => void submit()}>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="taskName" label={m.taskName} required={isRequired(taskSave, 'taskName')} rules={[zodRule(taskSave, 'taskName')]} validateFirst>
              <Input placeholder={fill(messages.common.inputPlaceholder, { label: m.taskName })} allowClear />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="showType" label={m.showType} rules={[zodRule(taskSave, 'showType')]}>
              <Select options={showTypeOptions} />
            </Form.Item>
          </Col>
        </Row>
        {shows.content && (
          <Form.Item
            name="content"
            label={m.content}
            required={showType !== ShowType.file}
            rules={[zodRule(taskSave, 'content'), { required: showType !== ShowType.file, whitespace: true, message: m.contentRequired }]}
            validateFirst
          >
            <Input.TextArea placeholder={fill(messages.common.inputPlaceholder, { label: m.content })} autoSize={{ minRows: 3, maxRows: 8 }} />
          </Form.Item>
        )}
        {shows.image && (
          <Form.Item
            name="imgUrl"
            label={isFile ? m.file : m.image}
            required
            rules={[{ required: true, message: isFile ? m.fileRequired : m.imageRequired }]}
          >
            <MediaField
              isFile={isFile}
              fileName={fileName}
              imgUrl={imgUrl}
              percent={uploadPercent}
              onPick={(file) => void uploadMedia(file)}
            />
          </Form.Item>
        )}
        <Form.Item name="fileNo" hidden>
          <Input />
        </Form.Item>
        <Form.Item name="fileName" hidden>
          <Input />
        </Form.Item>
        <Form.Item label={m.qrUrl} required={false}>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="qrUrl" noStyle rules={[zodRule(taskSave, 'qrUrl')]}>
              <Input placeholder={fill(messages.common.inputPlaceholder, { label: m.qrUrl })} aria-label={m.qrUrl} />
            </Form.Item>
            <Button icon={<QrcodeOutlined />} loading={qrPending} onClick={() => void generateQr()}>
              {m.generateQr}
            </Button>
          </Space.Compact>
        </Form.Item>
        <Row gutter={16}>
          {numberFields.map((field) => (
            <Col span={12} key={field.name}>
              <Form.Item
                name={field.name}
                label={field.label}
                required
                dependencies={field.name === 'batchSendMaxNum' ? ['batchSendNum'] : undefined}
                rules={[
                  { required: true, message: field.invalid },
                  zodRule(taskSave, field.name),
                  ...(field.name === 'batchSendMaxNum' ? [batchRule] : []),
                ]}
                validateFirst
              >
                <InputNumber min={0} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          ))}
        </Row>
        <Form.Item name="machineCodeList" label={m.machineCodeList}>
          <Select
            mode="multiple"
            allowClear
            loading={devices.isFetching}
            options={deviceOptions}
            placeholder={fill(messages.common.selectPlaceholder, { label: m.machineCodeList })}
          />
        </Form.Item>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="isRandomNum" label={m.isRandomNum}>
              <Radio.Group options={randomNumOptions} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="randomPosition" label={m.randomPosition}>
              <Radio.Group options={randomPositionOptions} />
            </Form.Item>
          </Col>
        </Row>
        <button type="submit" hidden aria-hidden />
      </Form>
      <QrDialog url={qr?.url ?? null} onClose={() => setQr(null)} />
    </Modal>
  );
}

/** SPEC §5: the batch minimum may not exceed the maximum, checked here and again by the server. */
const batchRule = ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
  validator: async (_rule: unknown, value: unknown) => {
    const min = Number(getFieldValue('batchSendNum'));
    if (value != null && Number.isFinite(min) && Number(value) < min) throw new Error(m.batchMinAboveMax);
  },
});

function toFormValues(task: Task) {
  return {
    taskName: task.taskName,
    showType: task.showType,
    content: task.content,
    imgUrl: task.imgUrl,
    fileNo: task.fileNo,
    fileName: task.fileName,
    qrUrl: task.qrUrl || TASK_QR_URL_DEFAULT,
    singleSendNumDay: task.singleSendNumDay,
    batchSendNum: task.batchSendNum,
    batchSendMaxNum: task.batchSendMaxNum,
    intervalSeconds: task.intervalSeconds,
    clearNum: task.clearNum,
    isRandomNum: task.isRandomNum,
    randomPosition: task.randomPosition,
    machineCodeList: task.machineCodeList,
  };
}

type MediaProps = {
  isFile: boolean;
  fileName?: string;
  imgUrl?: string;
  percent: number | null;
  onPick: (file: File) => void;
  id?: string;
};

/** The image (showType 2, 3) or file (4) of a task: pick, upload with progress, preview. */
function MediaField({ isFile, fileName, imgUrl, percent, onPick, id }: MediaProps) {
  return (
    <Space direction="vertical" id={id}>
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
