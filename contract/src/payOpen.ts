// terminal_config.pay_open: read by terminalConfig.ts and its answer schema (responses/pay.ts), so neither imports
// the other; its own file, so it stays in the bundle of the one screen that shows it.
export const PayOpen = { normal: 'T', disabled: 'N' } as const;
export type PayOpen = (typeof PayOpen)[keyof typeof PayOpen];
