import { Button, Form, Space } from 'antd';
import { ReloadOutlined, SearchOutlined } from '../../shared/icons.tsx';
import { messages } from '@huiyun/contract';
import { FieldInput } from './FieldInput.tsx';
import type { FieldConfig } from './types.ts';

type Props = { name: string; fields: FieldConfig[]; onSearch: (values: Record<string, unknown>) => void };

/** The filters above a list: 查询 applies them from page 1, 重置 clears them. */
export function SearchForm({ name, fields, onSearch }: Props) {
  const [form] = Form.useForm();
  const submit = (values: Record<string, unknown>) => {
    const filters: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) {
      const clean = typeof value === 'string' ? value.trim() : value;
      if (clean !== undefined && clean !== null && clean !== '') filters[key] = clean;
    }
    onSearch(filters);
  };
  const reset = () => {
    form.resetFields();
    onSearch({});
  };
  return (
    <Form form={form} name={name} layout="inline" onFinish={submit} style={{ rowGap: 12 }}>
      {fields.map((field) => (
        <Form.Item key={field.name} name={field.name} label={field.label}>
          <FieldInput field={field} />
        </Form.Item>
      ))}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            {messages.common.search}
          </Button>
          <Button onClick={reset} icon={<ReloadOutlined />}>
            {messages.common.reset}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
