import { Form, InputNumber, Typography } from 'antd';
import { authCodeRecharge, messages, type AuthCode } from '@huiyun/contract';
import { rechargeAuthCode } from '../../../api/authcode.ts';
import { FormDialog, SchemaField, firstIssue } from '../../../components/FormDialog/index.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';

const m = messages.authcode;

type RechargeForm = { dueNum: number; dueDateNum: number };

/** 充值: adds a quantity and validity days to one code (the rule is stated in the dialog). */
export function RechargeDialog({ code, onClose }: { code: AuthCode | null; onClose: () => void }) {
  const [form] = Form.useForm<RechargeForm>();
  const saver = useServerAction('authcode', rechargeAuthCode);

  const save = async (values: RechargeForm) => {
    if (!code) return false;
    const parsed = authCodeRecharge.safeParse({ id: code.id, ...values });
    if (!parsed.success) {
      // The object rule (at least one of the two above 0) belongs to no single field: shown under the first.
      const text = firstIssue(authCodeRecharge, { id: code.id, ...values });
      form.setFields([{ name: 'dueNum', errors: text ? [text] : [] }]);
      return false;
    }
    return saver.run(parsed.data, m.rechargeFailed);
  };

  return (
    <FormDialog<RechargeForm>
      open={code !== null}
      title={m.rechargeTitle}
      name="authcode-recharge"
      form={form}
      schema={authCodeRecharge}
      values={{ dueNum: 0, dueDateNum: 0 }}
      onFinish={save}
      onClose={onClose}
    >
      <Form.Item label={m.authCode}>
        <Typography.Text strong>{code?.authCode}</Typography.Text>
        <Typography.Text type="secondary">{` ${m.dueNum} ${code?.dueNum ?? ''} · ${m.dueDateStr} ${code?.dueDateStr ?? ''}`}</Typography.Text>
      </Form.Item>
      <SchemaField name="dueNum" label={m.rechargeNum} required>
        <InputNumber controls={false} style={{ width: '100%' }} min={0} precision={0} />
      </SchemaField>
      <SchemaField name="dueDateNum" label={m.rechargeDays} required extra={m.rechargeHint}>
        <InputNumber controls={false} style={{ width: '100%' }} min={0} precision={0} />
      </SchemaField>
    </FormDialog>
  );
}
