import { lazy, Suspense } from 'react';
import { Input, InputNumber, Select } from 'antd';
import { fill, messages } from '@huiyun/contract';
import { EyeInvisibleOutlined, EyeOutlined } from '../../shared/icons.tsx';
import type { FieldConfig } from './types.ts';

/** Select fields with more options than this can be searched. */
const SEARCHABLE_FROM = 10;

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
          // A long list (companies, machines) is found by typing, not by scrolling its virtual list.
          showSearch={(field.options?.length ?? 0) > SEARCHABLE_FROM ? { optionFilterProp: 'label' } : undefined}
          options={field.options}
          placeholder={field.placeholder ?? fill(messages.common.selectPlaceholder, { label: field.label })}
          style={{ minWidth: 160 }}
        />
      );
    case 'password':
      return <Input.Password {...(control as object)} disabled={disabled} placeholder={placeholder} autoComplete="new-password" iconRender={passwordToggleIcon} />;
    case 'textarea':
      return <Input.TextArea {...(control as object)} disabled={disabled} placeholder={placeholder} autoSize={{ minRows: 3, maxRows: 8 }} />;
    case 'dateRange':
      return (
        <Suspense fallback={<Input disabled placeholder={field.rangePlaceholder?.join(' ~ ')} />}>
          <DateRangeInput {...(control as object)} disabled={disabled} placeholder={field.rangePlaceholder} />
        </Suspense>
      );
    case 'number':
      return <InputNumber {...(control as object)} disabled={disabled} placeholder={placeholder} style={{ width: '100%' }} />;
    default:
      return <Input {...(control as object)} disabled={disabled} placeholder={placeholder} allowClear />;
  }
}

// The date picker (with its calendar panels) is loaded when a screen first shows a day-range filter.
const DateRangeInput = lazy(() => import('./DateRangeInput.tsx').then((m) => ({ default: m.DateRangeInput })));

/** The show/hide toggle's icon, decorative (antd's own announces an image named in English). */
const passwordToggleIcon = (visible: boolean) => (visible ? <EyeOutlined /> : <EyeInvisibleOutlined />);
