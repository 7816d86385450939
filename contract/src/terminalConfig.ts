import { z } from 'zod';
import { fill, terminalConfig as m } from './messages.ts';
import { idOf, optionalId, optionalText, pageQuery, requiredText } from './fields.ts';
import { configPayType } from './payConfig.ts';
import type * as payAnswers from './responses/pay.ts';
import { PayOpen } from './payOpen.ts';

// 终端支付配置 (SPEC §3 Terminal pay config, §5, §7.6): binds a machine and a pay type to a 支付配置 of
// the machine's company. One row per (machineNo, payType). payOpen T 正常 / N 停用.

export const terminalConfigSave = z.object({
  tcId: optionalId,
  machineNo: requiredText(m.machineNoRequired, 32, fill(m.tooLong, { label: m.machineNo })),
  payType: configPayType(m.payTypeRequired),
  configId: idOf(m.configIdRequired),
  configName: requiredText(m.configNameRequired, 64, fill(m.tooLong, { label: m.configName })),
  payOpen: z.enum([PayOpen.normal, PayOpen.disabled], { error: m.payOpenRequired }),
  posNo: optionalText(64, fill(m.tooLong, { label: m.posNo })),
});
export type TerminalConfigSave = z.infer<typeof terminalConfigSave>;

export const terminalConfigListQuery = pageQuery.extend({
  machineNo: optionalText(32),
});
export type TerminalConfigListQuery = z.infer<typeof terminalConfigListQuery>;

export type TerminalConfig = z.output<typeof payAnswers.terminalConfigRow>;

export const terminalConfigSortFields = ['machineNo', 'payType', 'configName', 'payOpen', 'editTime'] as const;

/** The pickers of the screen: machines the caller may bind (by number or name), configs of a machine's company by pay type. */
export const terminalMachineQuery = z.object({ keyword: optionalText(32) });
export const terminalConfigChoicesQuery = z.object({
  machineNo: requiredText(m.machineNoRequired, 32, fill(m.tooLong, { label: m.machineNo })),
  payType: configPayType(m.payTypeRequired),
});
export type TerminalMachineChoice = z.output<typeof payAnswers.terminalMachineChoice>;
export type TerminalPayConfigChoice = z.output<typeof payAnswers.terminalPayConfigChoice>;
