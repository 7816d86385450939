import { Button, Form, Input, InputNumber, Select, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { authCodeSave, fill, messages, randomAuthCode } from '@huiyun/contract';
import { listTaskUsers, saveAuthCode } from '../api/authcode.ts';
import { queryKeys } from '../api/queryKeys.ts';
import { FormDialog, SchemaField } from './FormDialog/index.ts';
import { useServerAction } from '../shared/useServerAction.ts';
import { useCurrentUser } from '../shared/useCurrentUser.ts';

const m = messages.authcode;
const FORM = 'authcode-add';

/** 新增授权码: owner (the operator, until another is picked), code (typed or 随机生成), quantity and validity days. */
export function AddAuthCodeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm();
  const me = useCurrentUser().data;
  const owners = useQuery({
    queryKey: queryKeys.options('user', 'taskUsers'),
    queryFn: listTaskUsers,
    enabled: open,
    staleTime: 0,
    retry: false,
    meta: { errorText: m.loadFailed },
  });
  const saver = useServerAction('authcode', saveAuthCode);

  const save = async (values: Record<string, unknown>) => {
    const parsed = authCodeSave.safeParse(values);
    return parsed.success && saver.run(parsed.data, m.saveFailed);
  };

  const generate = () => {
    form.setFieldValue('authCode', randomAuthCode());
    void form.validateFields(['authCode']);
  };

  return (
    <FormDialog
      open={open}
      title={fill(messages.common.addTitle, { name: m.entityName })}
      name={FORM}
      form={form}
      schema={authCodeSave}
      values={me ? { authUserId: me.userId } : undefined}
      onFinish={save}
      onClose={onClose}
    >
      <SchemaField name="authUserId" label={m.owner} required>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          loading={owners.isFetching}
          placeholder={fill(messages.common.selectPlaceholder, { label: m.owner })}
          options={(owners.data ?? []).map((u) => ({ value: u.userId, label: u.userName }))}
        />
      </SchemaField>
      <Form.Item label={m.authCode} required htmlFor={`${FORM}_authCode`}>
        <Space.Compact style={{ width: '100%' }}>
          <SchemaField name="authCode" noStyle>
            <Input placeholder={fill(messages.common.inputPlaceholder, { label: m.authCode })} maxLength={32} />
          </SchemaField>
          <Button onClick={generate}>{m.random}</Button>
        </Space.Compact>
      </Form.Item>
      <SchemaField name="dueNum" label={m.quantity} required>
        <InputNumber controls={false} style={{ width: '100%' }} min={0} precision={0} placeholder={fill(messages.common.inputPlaceholder, { label: m.quantity })} />
      </SchemaField>
      <SchemaField name="dueDateNum" label={m.validDays} required>
        <InputNumber controls={false} style={{ width: '100%' }} min={1} precision={0} placeholder={fill(messages.common.inputPlaceholder, { label: m.validDays })} />
      </SchemaField>
    </FormDialog>
  );
}
