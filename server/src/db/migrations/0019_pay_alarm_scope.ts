import { sql, type Kysely } from 'kysely';

// 支付告警 (/pay/Alarm): an alarm belongs to its order's company and terminal, so a company
// administrator sees its own alarms only (data scope) and the screen filters by terminal. Alarms
// written before this carry the company and terminal of their order where pay_order still has it;
// an alarm whose order is not found keeps deptId 0 (the super administrator's only).
// Every filter of the list ends in (createTime, alarmId), like 交易订单's: "newest first" walks an index
// and stops after a page (0015 has (createTime, alarmId) for the unfiltered list).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pay_alarm').addColumn('deptId', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('pay_alarm').addColumn('machineNo', 'varchar(32)', (c) => c.notNull().defaultTo('')).execute();
  // one statement for both databases: pay_order.orderNo is unique (0011), so each subquery is one row
  await sql`update pay_alarm set
      "deptId" = (select o."deptId" from pay_order o where o."orderNo" = pay_alarm."orderNo"),
      "machineNo" = (select o."machineNo" from pay_order o where o."orderNo" = pay_alarm."orderNo")
    where exists (select 1 from pay_order o where o."orderNo" = pay_alarm."orderNo")`.execute(db);
  await db.schema.createIndex('pay_alarm_dept_time').on('pay_alarm').columns(['deptId', 'createTime', 'alarmId']).execute();
  await db.schema.createIndex('pay_alarm_kind_time').on('pay_alarm').columns(['kind', 'createTime', 'alarmId']).execute();
  // a company administrator's every query names its companies: its kind filter needs both (bench/pay-alarms.ts:
  // a 1 % kind in one company's scope at 1,000,000 alarms, SQLite raw: 12/s without it, 5,115/s with it; docs/performance.md)
  await db.schema.createIndex('pay_alarm_dept_kind_time').on('pay_alarm').columns(['deptId', 'kind', 'createTime', 'alarmId']).execute();
  await db.schema.createIndex('pay_alarm_order_time').on('pay_alarm').columns(['orderNo', 'createTime', 'alarmId']).execute();
  await db.schema.createIndex('pay_alarm_machine_time').on('pay_alarm').columns(['machineNo', 'createTime', 'alarmId']).execute();
}
