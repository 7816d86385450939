import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Form, Modal, type FormInstance } from 'antd';
import { messages } from '@huiyun/contract';
import { SchemaContext } from './SchemaField.tsx';
import type { ObjectSchemaLike } from './zodRule.ts';

export type FormDialogProps<Values> = {
  open: boolean;
  title: ReactNode;
  /** The form's name (its inputs' ids are `${name}_${field}`). A dialog without inputs (a tree) omits it: no <form> then. */
  name?: string;
  /** The caller's instance when it needs one (to set a field from a button); one is made otherwise. */
  form?: FormInstance<Values>;
  /** The contract's zod schema: every SchemaField inside takes its rule and required mark from it. */
  schema?: ObjectSchemaLike;
  /** Set after a reset each time the dialog opens. */
  values?: Partial<Values>;
  /** Runs with the validated values; answer true to close (false keeps the dialog open, e.g. the server refused). */
  onFinish: (values: Values) => Promise<boolean> | boolean;
  onClose: () => void;
  /** Default 保存. */
  okText?: string;
  /** The OK button is off (e.g. there is nothing loaded to save yet). */
  okDisabled?: boolean;
  /** Build the content anew on each opening (a tree with defaultExpandAll); otherwise it stays mounted. */
  destroyOnHidden?: boolean;
  width?: number;
  children: ReactNode;
};

/**
 * The one add / edit dialog (Ant Design Pro's ModalForm): no close on a mask click, 保存 / 取消, the form
 * reset on opening, OK and Enter validate → onFinish → close on success, the OK button spinning meanwhile.
 */
export function FormDialog<Values extends object = Record<string, unknown>>(props: FormDialogProps<Values>) {
  const { open, title, name, schema, onClose, okText = messages.common.save, okDisabled, destroyOnHidden, width, children } = props;
  const [form] = Form.useForm<Values>(props.form);
  const [submitting, setSubmitting] = useState(false);
  const busy = useRef(false);
  // The values and handler of the latest render, read when the dialog opens / submits.
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    const { values } = latest.current;
    if (values) form.setFieldsValue(values as Parameters<typeof form.setFieldsValue>[0]);
  }, [open, form]);

  const finish = async (values: Values) => {
    if (busy.current) return; // a second Enter while the first save runs
    busy.current = true;
    setSubmitting(true);
    try {
      if (await latest.current.onFinish(values)) onClose();
    } finally {
      busy.current = false;
      setSubmitting(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={messages.common.cancel}
      okButtonProps={okDisabled ? { disabled: true } : undefined}
      confirmLoading={submitting}
      onOk={() => form.submit()}
      onCancel={onClose}
      mask={{ closable: false }}
      forceRender={!destroyOnHidden}
      destroyOnHidden={destroyOnHidden}
      width={width}
    >
      <SchemaContext.Provider value={schema}>
        <Form<Values> form={form} name={name} layout="vertical" component={name ? undefined : false} onFinish={(values) => void finish(values)}>
          {children}
          {name && <button type="submit" hidden aria-hidden />}
        </Form>
      </SchemaContext.Provider>
    </Modal>
  );
}
