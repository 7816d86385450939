import { useState } from 'react';
import { Form, Input, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { fill, messages, PayOpen, payOpenOptions, payTypeOptions, terminalConfigSave, type TerminalConfig, type TerminalConfigSave } from '@huiyun/contract';
import { queryKeys } from '../../../api/queryKeys.ts';
import { listTerminalMachines, listTerminalPayConfigs, saveTerminalConfig } from '../../../api/terminalConfig.ts';
import { FormDialog, SchemaField } from '../../../components/FormDialog/index.ts';
import { RadioGroup } from '../../../components/RadioGroup.tsx';
import { useServerAction } from '../../../shared/useServerAction.ts';

const m = messages.terminalConfig;
const FORM = 'terminalConfig-edit';

type Values = Partial<TerminalConfigSave>;

/**
 * 新增 / 编辑终端支付配置: the machine is picked from the caller's machines (searched by number or name),
 * the 支付配置 from those of the machine's company and the chosen pay type — never a typed id.
 */
export function TerminalConfigDialog({ open, editing, onClose }: { open: boolean; editing: TerminalConfig | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const machineNo = Form.useWatch('machineNo', form);
  const payType = Form.useWatch('payType', form);
  const [keyword, setKeyword] = useState('');
  const saver = useServerAction('terminalConfig', saveTerminalConfig);

  const machines = useQuery({
    queryKey: queryKeys.options('terminalConfig', 'machines', keyword),
    queryFn: () => listTerminalMachines(keyword),
    enabled: open,
    staleTime: 10_000,
    meta: { errorText: m.optionsFailed },
  });
  const configs = useQuery({
    queryKey: queryKeys.options('payConfig', 'terminal', machineNo ?? '', payType ?? 0),
    queryFn: () => listTerminalPayConfigs(machineNo!, payType!),
    enabled: open && Boolean(machineNo) && Boolean(payType),
    staleTime: 0,
    meta: { errorText: m.optionsFailed },
  });

  const machineOptions = (machines.data ?? []).map((c) => ({ value: c.machineNo, label: fill(m.machineChoice, c) }));
  if (editing && !machineOptions.some((o) => o.value === editing.machineNo)) {
    machineOptions.unshift({ value: editing.machineNo, label: fill(m.machineChoice, editing) });
  }
  const configOptions = (configs.data ?? []).map((c) => ({ value: c.id, label: fill(m.configChoice, c) }));
  const noConfigs = Boolean(machineNo && payType) && configs.isSuccess && configOptions.length === 0;

  // A config picked: its name is the display name until the operator writes another.
  const onConfig = (id: number) => {
    const picked = configs.data?.find((c) => c.id === id);
    if (picked && !String(form.getFieldValue('configName') ?? '').trim()) form.setFieldValue('configName', picked.name);
  };
  // Another machine or pay type: the picked config may no longer fit.
  const resetConfig = () => form.setFieldValue('configId', undefined);

  const values: Values = editing
    ? { machineNo: editing.machineNo, payType: editing.payType, configId: editing.configId, configName: editing.configName, payOpen: editing.payOpen, posNo: editing.posNo }
    : { payOpen: PayOpen.normal };

  return (
    <FormDialog<Values>
      open={open}
      title={fill(editing ? messages.common.editTitle : messages.common.addTitle, { name: m.entityName })}
      name={FORM}
      form={form}
      schema={terminalConfigSave}
      values={values}
      onFinish={(v) => saver.run({ ...v, tcId: editing?.tcId, posNo: v.posNo ?? '' }, m.saveFailed)}
      onClose={onClose}
      width={560}
    >
      <SchemaField name="machineNo" label={m.machineNo}>
        <Select
          showSearch={{ filterOption: false, onSearch: setKeyword }}
          loading={machines.isFetching}
          options={machineOptions}
          placeholder={fill(messages.common.selectPlaceholder, { label: m.machineNo })}
          onChange={resetConfig}
        />
      </SchemaField>
      <SchemaField name="payType" label={m.payType}>
        <Select options={payTypeOptions} placeholder={fill(messages.common.selectPlaceholder, { label: m.payType })} onChange={resetConfig} />
      </SchemaField>
      <SchemaField name="configId" label={m.configId} extra={noConfigs ? m.noConfigs : undefined}>
        <Select
          options={configOptions}
          loading={configs.isFetching}
          disabled={!machineNo || !payType}
          placeholder={machineNo ? fill(messages.common.selectPlaceholder, { label: m.configId }) : m.pickMachineFirst}
          onChange={onConfig}
        />
      </SchemaField>
      <SchemaField name="configName" label={m.configName}>
        <Input placeholder={fill(messages.common.inputPlaceholder, { label: m.configName })} maxLength={64} />
      </SchemaField>
      <SchemaField name="payOpen" label={m.payOpen}>
        <RadioGroup label={m.payOpen} options={payOpenOptions} />
      </SchemaField>
      <SchemaField name="posNo" label={m.posNo}>
        <Input placeholder={fill(messages.common.inputPlaceholder, { label: m.posNo })} maxLength={64} />
      </SchemaField>
    </FormDialog>
  );
}
