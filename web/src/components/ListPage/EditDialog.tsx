import { useEffect } from 'react';
import { Form, Modal } from 'antd';
import { fill, messages } from '@huiyun/contract';
import { FieldInput } from './FieldInput.tsx';
import { useServerAction } from './useServerAction.ts';
import { isRequired, zodRule } from './zodRule.ts';
import type { EditConfig } from './types.ts';

type Props<Row> = {
  name: string;
  queryKey: string;
  config: EditConfig<Row>;
  open: boolean;
  editing: Row | null;
  onClose: () => void;
};

/** The add / edit dialog: fields and rules from the config, save → server text → close + reload. */
export function EditDialog<Row extends object>({ name, queryKey, config, open, editing, onClose }: Props<Row>) {
  const [form] = Form.useForm();
  const saver = useServerAction(queryKey, (input: { values: Record<string, unknown>; editing: Row | null }) =>
    config.save(input.values, input.editing),
  );

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(editing ? (config.toFormValues?.(editing) ?? { ...editing }) : (config.initialValues ?? {}));
    // config is rebuilt by every render of the screen; only opening the dialog resets the form.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, editing, form]);

  const submit = async () => {
    let values: Record<string, unknown>;
    try {
      values = await form.validateFields();
    } catch {
      return; // the field messages are showing
    }
    if (await saver.run({ values, editing }, config.failText)) onClose();
  };

  const title = fill(editing ? messages.common.editTitle : messages.common.addTitle, { name: config.entityName });
  return (
    <Modal
      open={open}
      title={title}
      okText={messages.common.save}
      cancelText={messages.common.cancel}
      confirmLoading={saver.pending}
      onOk={() => void submit()}
      onCancel={onClose}
      forceRender
      maskClosable={false}
    >
      <Form form={form} name={name} layout="vertical" onFinish={() => void submit()}>
        {config.fields.map((field) => (
          <Form.Item
            key={field.name}
            name={field.name}
            label={field.label}
            required={isRequired(config.schema, field.name)}
            rules={config.schema ? [zodRule(config.schema, field.name)] : undefined}
            validateFirst
          >
            <FieldInput field={field} disabled={Boolean(editing && field.readOnlyOnEdit)} />
          </Form.Item>
        ))}
        <button type="submit" hidden aria-hidden />
      </Form>
    </Modal>
  );
}
