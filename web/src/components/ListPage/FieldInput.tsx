import { DatePicker, Input, InputNumber, Select } from 'antd';
import dayjs from 'dayjs';
import { fill, messages } from '@huiyun/contract';
import type { FieldConfig } from './types.ts';

type Props = { field: FieldConfig; disabled?: boolean; value?: unknown; onChange?: (value: unknown) => void; id?: string };

/** The input for one field config; antd Form.Item injects value / onChange / id. */
export function FieldInput({ field, disabled, ...control }: Props) {
  const typed = `${fill(messages.common.inputPlaceholder, { label: field.label })}`;
  const placeholder = field.placeholder ?? typed;
  switch (field.type) {
    case 'select':
      return (
        <Select
          {...(control as object)}
          disabled={disabled}
          allowClear
          options={field.options}
          placeholder={field.placeholder ?? fill(messages.common.selectPlaceholder, { label: field.label })}
          style={{ minWidth: 160 }}
        />
      );
    case 'password':
      return <Input.Password {...(control as object)} disabled={disabled} placeholder={placeholder} autoComplete="new-password" />;
    case 'textarea':
      return <Input.TextArea {...(control as object)} disabled={disabled} placeholder={placeholder} autoSize={{ minRows: 3, maxRows: 8 }} />;
    case 'dateRange':
      return <DateRangeInput {...(control as object)} disabled={disabled} placeholder={field.rangePlaceholder} />;
    case 'number':
      return <InputNumber {...(control as object)} disabled={disabled} placeholder={placeholder} style={{ width: '100%' }} />;
    default:
      return <Input {...(control as object)} disabled={disabled} placeholder={placeholder} allowClear />;
  }
}

const DAY_FORMAT = 'YYYY-MM-DD';

type DateRangeProps = { value?: unknown; onChange?: (value: unknown) => void; id?: string; disabled?: boolean; placeholder?: [string, string] };

/** A day range kept in the form as two 'YYYY-MM-DD' strings, so filters stay plain JSON. */
function DateRangeInput({ value, onChange, id, disabled, placeholder }: DateRangeProps) {
  const days = Array.isArray(value) && value.length === 2 ? (value as [string, string]) : null;
  return (
    <DatePicker.RangePicker
      id={id}
      disabled={disabled}
      allowClear
      format={DAY_FORMAT}
      placeholder={placeholder}
      value={days ? [dayjs(days[0], DAY_FORMAT), dayjs(days[1], DAY_FORMAT)] : null}
      onChange={(range) => {
        const [start, end] = range ?? [];
        onChange?.(start && end ? [start.format(DAY_FORMAT), end.format(DAY_FORMAT)] : undefined);
      }}
    />
  );
}
