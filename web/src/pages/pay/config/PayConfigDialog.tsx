import { Alert, Checkbox, Form, Input, Select } from 'antd';
import {
  fill, gatewayFields, gatewaySignTypes, gatewaysOfPayType, messages, multilinePayConfigFields, payConfigSave, payConfigSecretFields, PayGateway,
  payTypeOptions, type PayConfig, type PayConfigField, type PayConfigSave, type PayConfigSecretField, type PayGateway as Gateway,
} from '@huiyun/contract';
import { savePayConfig } from '../../../api/payConfig.ts';
import { FormDialog, SchemaField } from '../../../components/FormDialog/index.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';
import { useCompanyOptions } from '../../../components/useCompanyOptions.ts';
import { CompanySelect } from '../../../components/CompanySelect.tsx';
import { ApiCertInput } from './ApiCertInput.tsx';

const m = messages.payConfig;
const FORM = 'payConfig-edit';

type Values = Record<string, unknown> & { payType?: number; gateway?: Gateway; clearSecrets?: PayConfigSecretField[] };

const isSecret = (field: PayConfigField): field is PayConfigSecretField => (payConfigSecretFields as readonly string[]).includes(field);

function formValues(row: PayConfig | null): Values {
  if (!row) return { gateway: PayGateway.simulator, clearSecrets: [] };
  const { id: _id, deptName: _d, addUser: _a, editUser: _e, addTime: _at, editTime: _et, ...fields } = row;
  return { ...fields, clearSecrets: [] };
}

/**
 * 新增 / 编辑支付配置: the fields of the chosen gateway only. A stored secret shows as its mask; left as
 * it is (or emptied) the server keeps it, typed anew it is replaced, ticked under 清除已保存的密钥 it is
 * cleared.
 */
export function PayConfigDialog({ open, editing, onClose }: { open: boolean; editing: PayConfig | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const payType = Form.useWatch('payType', form);
  const gateway = (Form.useWatch('gateway', form) as Gateway | undefined) ?? PayGateway.simulator;
  const saver = useServerAction('payConfig', savePayConfig);
  const companies = useCompanyOptions({ enabled: open && !editing });
  const { shown, required } = gatewayFields[gateway];
  const gatewayChoices = gatewaysOfPayType(payType);
  const storedSecrets = payConfigSecretFields.filter((f) => editing && editing[f] !== '' && shown.includes(f));

  const save = (values: Values) => {
    const body: Partial<PayConfigSave> & Record<string, unknown> = { ...values, id: editing?.id };
    for (const field of shown) body[field] = String(values[field] ?? '');
    return saver.run(body as Partial<PayConfigSave>, m.saveFailed);
  };

  // A pay type the gateway does not serve: back to the simulator (it serves every pay type).
  const onPayType = (next: number) => {
    if (!gatewaysOfPayType(next).some((g) => g.value === form.getFieldValue('gateway'))) form.setFieldValue('gateway', PayGateway.simulator);
  };

  return (
    <FormDialog<Values>
      open={open}
      title={fill(editing ? messages.common.editTitle : messages.common.addTitle, { name: m.entityName })}
      name={FORM}
      form={form}
      schema={payConfigSave}
      values={formValues(editing)}
      onFinish={save}
      onClose={onClose}
      width={640}
    >
      {!editing && companies.many && (
        <SchemaField name="deptId" label={m.dept} rules={[{ required: true, message: m.deptRequired }]}>
          <CompanySelect companies={companies} placeholder={fill(messages.common.selectPlaceholder, { label: m.dept })} showSearch={{ optionFilterProp: 'label' }} />
        </SchemaField>
      )}
      <SchemaField name="name" label={m.name}>
        <Input placeholder={fill(messages.common.inputPlaceholder, { label: m.name })} maxLength={64} />
      </SchemaField>
      <SchemaField name="payType" label={m.payType}>
        <Select options={payTypeOptions} placeholder={fill(messages.common.selectPlaceholder, { label: m.payType })} onChange={onPayType} />
      </SchemaField>
      <SchemaField name="gateway" label={m.gateway} required>
        <Select options={gatewayChoices.length ? gatewayChoices : []} placeholder={fill(messages.common.selectPlaceholder, { label: m.gateway })} />
      </SchemaField>
      {gateway === PayGateway.simulator && <Alert type="info" showIcon title={m.simulatorHint} style={{ marginBottom: 16 }} />}
      {shown.map((field) => {
        const label = m[field];
        // the mark comes from the gateway's table (contract gatewayFields, the server checks the same), not the schema
        const needed = required.includes(field);
        const rules = needed ? [{ required: true, whitespace: true, message: fill(m.fieldRequired, { label }) }] : [];
        const placeholder = fill(messages.common.inputPlaceholder, { label });
        const signTypes = gatewaySignTypes[gateway];
        if (field === 'signType' && signTypes) {
          return (
            <SchemaField key={field} name={field} label={label} required rules={[{ required: true, message: fill(messages.common.selectPlaceholder, { label }) }]}>
              <Select options={signTypes.map((s) => ({ value: s, label: s }))} placeholder={fill(messages.common.selectPlaceholder, { label })} />
            </SchemaField>
          );
        }
        const multiline = multilinePayConfigFields.includes(field);
        if (isSecret(field)) {
          const stored = storedSecrets.includes(field);
          return (
            <SchemaField key={field} name={field} label={label} required={needed} rules={stored ? [] : rules} extra={stored ? m.secretKeepHint : field === 'apiCert' ? m.apiCertHint : undefined}>
              {field === 'apiCert' ? (
                <ApiCertInput placeholder={placeholder} />
              ) : multiline ? (
                <Input.TextArea rows={3} placeholder={placeholder} autoComplete="off" spellCheck={false} />
              ) : (
                <Input.Password placeholder={placeholder} autoComplete="new-password" visibilityToggle />
              )}
            </SchemaField>
          );
        }
        return (
          <SchemaField key={field} name={field} label={label} required={needed} rules={rules}>
            {multiline ? <Input.TextArea rows={3} placeholder={placeholder} spellCheck={false} /> : <Input placeholder={placeholder} />}
          </SchemaField>
        );
      })}
      {storedSecrets.length > 0 && (
        <Form.Item name="clearSecrets" label={m.clearSecrets} extra={m.clearSecretsHint}>
          <Checkbox.Group options={storedSecrets.map((f) => ({ value: f, label: m[f] }))} />
        </Form.Item>
      )}
    </FormDialog>
  );
}
