// The field groups of 新增任务 / 编辑任务, each a few inputs of one concern; rules from the contract's
// taskSave (the schema of the surrounding FormDialog) plus the screen's own texts.
import { Alert, Button, Col, Form, Input, InputNumber, Row, Select, Space, TimePicker, Typography } from 'antd';
import { QrcodeOutlined } from '../../../shared/icons.tsx';
import { fill, messages, randomNumOptions, randomPositionOptions, ShowType, showTypeOptions } from '@huiyun/contract';
import { SchemaField } from '../../../components/FormDialog/index.ts';
import { RadioGroup } from '../../../components/RadioGroup.tsx';
import { MediaField } from './MediaField.tsx';
import { batchRule, numberFields, pickerToTime, sendWindowRule, timeToPicker } from './taskForm.ts';

const m = messages.task;
const inputPlaceholder = (label: string) => fill(messages.common.inputPlaceholder, { label });

/** 任务名称, 展示类型 and, where the type shows one, the text. */
export function TaskBasicsFields({ showType, showsContent }: { showType: number; showsContent: boolean }) {
  const contentRequired = showType !== ShowType.file;
  return (
    <>
      <Row gutter={16}>
        <Col span={12}>
          <SchemaField name="taskName" label={m.taskName}>
            <Input placeholder={inputPlaceholder(m.taskName)} allowClear />
          </SchemaField>
        </Col>
        <Col span={12}>
          <SchemaField name="showType" label={m.showType} required={false} validateFirst={false}>
            <Select options={showTypeOptions} />
          </SchemaField>
        </Col>
      </Row>
      {showsContent && (
        <SchemaField
          name="content"
          label={m.content}
          required={contentRequired}
          rulesAfter={[{ required: contentRequired, whitespace: true, message: m.contentRequired }]}
        >
          <Input.TextArea placeholder={inputPlaceholder(m.content)} autoSize={{ minRows: 3, maxRows: 8 }} />
        </SchemaField>
      )}
    </>
  );
}

type MediaGroupProps = { shown: boolean; isFile: boolean; percent: number | null; onPick: (file: File) => void };

/** The image or file (uploaded at once) and where the server keeps it. */
export function TaskMediaFields({ shown, isFile, percent, onPick }: MediaGroupProps) {
  const imgUrl = Form.useWatch('imgUrl') as string | undefined;
  const fileName = Form.useWatch('fileName') as string | undefined;
  return (
    <>
      {shown && (
        <Form.Item name="imgUrl" label={isFile ? m.file : m.image} required rules={[{ required: true, message: isFile ? m.fileRequired : m.imageRequired }]}>
          <MediaField isFile={isFile} fileName={fileName} imgUrl={imgUrl} percent={percent} onPick={onPick} />
        </Form.Item>
      )}
      <Form.Item name="fileNo" hidden>
        <Input />
      </Form.Item>
      <Form.Item name="fileName" hidden>
        <Input />
      </Form.Item>
    </>
  );
}

/** 二维码链接 with 生成二维码 beside it. */
export function TaskQrField({ pending, onGenerate }: { pending: boolean; onGenerate: () => void }) {
  return (
    <Form.Item label={m.qrUrl} required={false}>
      <Space.Compact style={{ width: '100%' }}>
        <SchemaField name="qrUrl" noStyle required={false} validateFirst={false}>
          <Input placeholder={inputPlaceholder(m.qrUrl)} aria-label={m.qrUrl} />
        </SchemaField>
        <Button icon={<QrcodeOutlined />} loading={pending} onClick={onGenerate}>
          {m.generateQr}
        </Button>
      </Space.Compact>
    </Form.Item>
  );
}

/** The sending numbers: per day, interval, batch minimum and maximum, clear count. */
export function TaskNumberFields() {
  return (
    <Row gutter={16}>
      {numberFields.map((field) => (
        <Col span={12} key={field.name}>
          <SchemaField
            name={field.name}
            label={field.label}
            required
            dependencies={field.name === 'batchSendMaxNum' ? ['batchSendNum'] : undefined}
            rules={[{ required: true, message: field.invalid }]}
            rulesAfter={field.name === 'batchSendMaxNum' ? [batchRule] : undefined}
          >
            <InputNumber controls={false} min={0} precision={0} style={{ width: '100%' }} />
          </SchemaField>
        </Col>
      ))}
    </Row>
  );
}

/** 发送时段: start and end (Beijing time); outside it no device gets a batch of the task. */
export function TaskSendWindowFields() {
  const picker = (name: 'sendStartTime' | 'sendEndTime', label: string) => (
    <SchemaField
      name={name}
      label={label}
      required={false}
      dependencies={name === 'sendEndTime' ? ['sendStartTime'] : undefined}
      rulesAfter={name === 'sendEndTime' ? [sendWindowRule] : undefined}
      getValueProps={(value: unknown) => ({ value: timeToPicker(value) })}
      normalize={pickerToTime}
    >
      <TimePicker format="HH:mm" needConfirm={false} aria-label={`${m.sendWindow}${label}`} style={{ width: '100%' }} />
    </SchemaField>
  );
  return (
    <Form.Item label={m.sendWindow} tooltip={m.sendWindowHelp} style={{ marginBottom: 0 }}>
      <Row gutter={16}>
        <Col span={12}>{picker('sendStartTime', m.sendWindowStart)}</Col>
        <Col span={12}>{picker('sendEndTime', m.sendWindowEnd)}</Col>
      </Row>
    </Form.Item>
  );
}

type DeviceFieldsProps = {
  options: { value: string; label: string }[];
  loading: boolean;
  /** None of the chosen devices can send the task's type (an SMS phone sends text only). */
  cannotSend: boolean;
};

/** The devices that send (with a warning when none of them can send the task's type), and the random-number options. */
export function TaskDeviceFields({ options, loading, cannotSend }: DeviceFieldsProps) {
  return (
    <>
      <Form.Item name="machineCodeList" label={m.machineCodeList} extra={cannotSend ? <Alert type="warning" showIcon title={m.devicesCannotSend} /> : undefined}>
        <Select
          mode="multiple"
          allowClear
          loading={loading}
          options={options}
          placeholder={fill(messages.common.selectPlaceholder, { label: m.machineCodeList })}
          notFoundContent={loading ? undefined : <Typography.Text type="secondary">{messages.device.pickerEmpty}</Typography.Text>}
        />
      </Form.Item>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="isRandomNum" label={m.isRandomNum}>
            <RadioGroup label={m.isRandomNum} options={randomNumOptions} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="randomPosition" label={m.randomPosition}>
            <RadioGroup label={m.randomPosition} options={randomPositionOptions} />
          </Form.Item>
        </Col>
      </Row>
    </>
  );
}
