import type { Option } from './enums.ts';

// terminal_config.pay_open and its labels: read by terminalConfig.ts and its answer schema (responses/pay.ts), so
// neither imports the other; its own file, without zod, so it stays in the bundle of the one screen that shows it
// and brings no schema into that screen's first load.
export const PayOpen = { normal: 'T', disabled: 'N' } as const;
export type PayOpen = (typeof PayOpen)[keyof typeof PayOpen];

export const payOpenOptions: Option<PayOpen>[] = [
  { value: PayOpen.normal, label: '正常' },
  { value: PayOpen.disabled, label: '停用' },
];
