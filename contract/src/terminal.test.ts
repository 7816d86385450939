import { describe, expect, it } from 'vitest';
import { terminal } from './messages.ts';
import { terminalCreateOrderSchema, terminalDispenseSchema, terminalOrderStatusSchema } from './terminal.ts';

describe('terminal protocol bodies', () => {
  it('refuses an order number or aisle with a control character, naming the field (PostgreSQL cannot compare U+0000)', () => {
    const status = terminalOrderStatusSchema.safeParse({ orderNo: 'A\u0000B' });
    expect(status.success).toBe(false);
    expect(status.error?.issues[0]?.message).toBe(terminal.orderNo);
    const create = terminalCreateOrderSchema.safeParse({ aisleNo: 'A1\u0001', payType: 3 });
    expect(create.error?.issues[0]?.message).toBe(terminal.aisleNo);
    expect(terminalOrderStatusSchema.parse({ orderNo: ' T123 ' }).orderNo).toBe('T123');
  });

  it('cleans the machine’s dispense message instead of refusing the report', () => {
    const report = terminalDispenseSchema.parse({ orderNo: 'T1', success: false, message: 'motor\u0000 jam\nA1' });
    expect(report.message).toBe('motor jam A1');
    expect(terminalDispenseSchema.parse({ orderNo: 'T1', success: true }).message).toBe('');
  });
});
