import { describe, expect, it } from 'vitest';
import { useDatabaseBefore } from '../../test/migration-test-support.ts';

describe('migration 0019_pay_alarm_scope', () => {
  const schema = useDatabaseBefore('0018_sim_notify');

  it("gives the alarms written before it their order's company and terminal; an unknown order's stays 0", async () => {
    await schema.migrate();
    const db = schema.db();
    await db.insertInto('pay_order').values({ deptId: 1, orderNo: 'MIG-1', payType: 3, transType: 1, machineNo: 'MIG-M1', goodsPrice: 100, payAmount: 100, orderStatus: 2, createTime: 1 }).execute();
    await db.insertInto('pay_alarm').values([
      { kind: 'notifyMismatch', orderNo: 'MIG-1', detail: 'amount', createTime: 2 },
      { kind: 'latePayment', orderNo: 'MIG-1', detail: '', createTime: 3 },
      { kind: 'notifyMismatch', orderNo: 'MIG-GONE', detail: '', createTime: 4 },
    ]).execute();
    await schema.finish();
    const rows = await db.selectFrom('pay_alarm').select(['orderNo', 'deptId', 'machineNo']).orderBy('alarmId').execute();
    expect(rows).toEqual([
      { orderNo: 'MIG-1', deptId: 1, machineNo: 'MIG-M1' },
      { orderNo: 'MIG-1', deptId: 1, machineNo: 'MIG-M1' },
      { orderNo: 'MIG-GONE', deptId: 0, machineNo: '' },
    ]);
  });
});
