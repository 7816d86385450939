import { Radio, type RadioGroupProps } from 'antd';

/**
 * The console's radio group: a radiogroup named for screen readers by `label`. antd's Radio.Group is a
 * role="radiogroup" div, and a Form.Item's <label for> names no div — without the name a screen reader
 * announces a nameless group. Every screen's radio groups are this one (RadioGroup.test.ts checks).
 */
export function RadioGroup({ label, ...props }: RadioGroupProps & { label: string }) {
  return <Radio.Group aria-label={label} {...props} />;
}
