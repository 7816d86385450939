import { DatePicker, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { messages, shanghaiDay, type ReconcileConfigChoice } from '@huiyun/contract';
import { runReconcile } from '../../../api/reconcile.ts';
import { FormDialog, SchemaField } from '../../../components/FormDialog/index.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';
// The date picker's styles come with this chunk (the console renders antd without runtime styles).
import 'virtual:antd-css/picker.css';

const m = messages.reconcile;
const DAY_FORMAT = 'YYYY-MM-DD';

type Values = { day?: Dayjs; configId?: number | '' };
const dayRule = { required: true, message: m.dayRequired };
const beijingToday = () => dayjs(shanghaiDay(Date.now()), DAY_FORMAT);

/**
 * 对账: a day (yesterday by default) and one 支付配置 or all of them. Today is offered too: the server refuses it
 * (只能对今天以前的日期对账) unless PAY_RECONCILE_TODAY is set for a demo against the fakes.
 */
export function RunDialog({ open, configs, onClose }: { open: boolean; configs: ReconcileConfigChoice[]; onClose: () => void }) {
  const action = useServerAction('reconcile', runReconcile);
  const submit = (values: Values) => action.run({ day: values.day!.format(DAY_FORMAT), configId: values.configId || undefined }, m.runFailed);
  const options = [{ value: '', label: m.allConfigs }, ...configs.map((c) => ({ value: c.configId, label: c.deptName ? `${c.name}（${c.deptName}）` : c.name }))];
  return (
    <FormDialog<Values>
      open={open}
      title={m.runTitle}
      name="reconcileRun"
      values={{ day: beijingToday().subtract(1, 'day'), configId: '' }}
      onFinish={submit}
      onClose={onClose}
      okText={m.runSubmit}
    >
      <SchemaField name="day" label={m.day} rules={[dayRule]} required>
        <DatePicker format={DAY_FORMAT} allowClear={false} disabledDate={(d) => d.isAfter(beijingToday(), 'day')} style={{ width: '100%' }} />
      </SchemaField>
      <SchemaField name="configId" label={m.config}>
        <Select options={options} aria-label={m.config} />
      </SchemaField>
    </FormDialog>
  );
}
