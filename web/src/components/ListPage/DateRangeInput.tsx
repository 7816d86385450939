import { DatePicker } from 'antd';
import dayjs from 'dayjs';
// The date picker's styles come with this chunk (the console renders antd without runtime styles).
import 'virtual:antd-css/picker.css';

const DAY_FORMAT = 'YYYY-MM-DD';

export type DateRangeProps = { value?: unknown; onChange?: (value: unknown) => void; id?: string; disabled?: boolean; placeholder?: [string, string] };

/** A day range kept in the form as two 'YYYY-MM-DD' strings, so filters stay plain JSON. */
export function DateRangeInput({ value, onChange, id, disabled, placeholder }: DateRangeProps) {
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
