import { sql, type Kysely } from 'kysely';
import { createSearchIndex } from '../search-index.ts';
import { withAudit, withAutoId } from './helpers.ts';

// The payment half's configuration and the order table its rules refer to (later
// migrations add what the order state machine needs). Amounts are integer fen. Secrets are sealed text
// (infra/secret-box.ts, listed in infra/sealed-columns.ts), never clear.
export async function up(db: Kysely<any>): Promise<void> {
  // 支付配置: one gateway account of a company for one pay type (SPEC §3 Payment config, plus the keys
  // WeChat Pay v3 and Alipay need).
  await withAudit(withAutoId(db, db.schema.createTable('pay_config'), 'id'))
    .addColumn('deptId', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('payType', 'integer', (c) => c.notNull())
    .addColumn('gateway', 'varchar(16)', (c) => c.notNull())
    .addColumn('partner', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('subMchId', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('appid', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('notifyUrl', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('signType', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('sellerUserId', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('certPath', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('certSerialNo', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('platformPubKeyId', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('platformPubKey', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('alipayPublicKey', 'text', (c) => c.notNull().defaultTo(''))
    // sealed (empty = not set)
    .addColumn('partnerKey', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('certPassword', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('rsaKey', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('apiV3Key', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('appPrivateKey', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('pay_config_dept_id').on('pay_config').columns(['deptId', 'id']).execute();
  await db.schema.createIndex('pay_config_type_id').on('pay_config').columns(['payType', 'id']).execute();
  await createSearchIndex(db, 'pay_config', 'id', ['name', 'partner']);

  // 售货机: machineNo is SPEC's terminal number. terminalKey (sealed) signs the terminal protocol.
  await withAudit(withAutoId(db, db.schema.createTable('pay_machine'), 'machineId'))
    .addColumn('machineNo', 'varchar(32)', (c) => c.notNull())
    .addColumn('machineName', 'varchar(64)', (c) => c.notNull())
    .addColumn('deptId', 'integer', (c) => c.notNull())
    .addColumn('address', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('terminalKey', 'text', (c) => c.notNull())
    .addColumn('lastSeenAt', 'bigint')
    .execute();
  await db.schema.createIndex('pay_machine_no').unique().on('pay_machine').column('machineNo').execute();
  await db.schema.createIndex('pay_machine_dept_id').on('pay_machine').columns(['deptId', 'machineId']).execute();
  await createSearchIndex(db, 'pay_machine', 'machineId', ['machineNo', 'machineName']);

  // 货道: the database keeps 0 ≤ stock ≤ capacity and price ≥ 0 whatever the code does.
  await withAudit(withAutoId(db, db.schema.createTable('pay_aisle'), 'aisleId'))
    .addColumn('machineId', 'integer', (c) => c.notNull())
    .addColumn('aisleNo', 'varchar(16)', (c) => c.notNull())
    .addColumn('layer', 'integer', (c) => c.notNull())
    .addColumn('aisleColumn', 'integer', (c) => c.notNull())
    .addColumn('goodsNo', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('goodsName', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('price', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('capacity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stock', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addCheckConstraint('pay_aisle_stock', sql`stock >= 0 and stock <= capacity`)
    .addCheckConstraint('pay_aisle_price', sql`price >= 0`)
    .execute();
  await db.schema.createIndex('pay_aisle_no').unique().on('pay_aisle').columns(['machineId', 'aisleNo']).execute();
  await db.schema.createIndex('pay_aisle_cell').unique().on('pay_aisle').columns(['machineId', 'layer', 'aisleColumn']).execute();

  // 终端支付配置: one row per (machine, pay type), bound to a 支付配置 of the same company. payOpen T/N.
  await withAudit(withAutoId(db, db.schema.createTable('pay_terminal_config'), 'tcId'))
    .addColumn('deptId', 'integer', (c) => c.notNull())
    .addColumn('machineNo', 'varchar(32)', (c) => c.notNull())
    .addColumn('payType', 'integer', (c) => c.notNull())
    .addColumn('configId', 'integer', (c) => c.notNull())
    .addColumn('configName', 'varchar(64)', (c) => c.notNull())
    .addColumn('payOpen', 'varchar(1)', (c) => c.notNull().defaultTo('T'))
    .addColumn('posNo', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('pay_terminal_config_machine_type').unique().on('pay_terminal_config').columns(['machineNo', 'payType']).execute();
  await db.schema.createIndex('pay_terminal_config_dept_id').on('pay_terminal_config').columns(['deptId', 'tcId']).execute();
  await db.schema.createIndex('pay_terminal_config_config').on('pay_terminal_config').column('configId').execute();

  // 交易订单 (SPEC §3 Order): amounts in fen, payAmount negative for a refund.
  await withAutoId(db, db.schema.createTable('pay_order'), 'orderId')
    .addColumn('deptId', 'integer', (c) => c.notNull())
    .addColumn('orderNo', 'varchar(64)', (c) => c.notNull())
    .addColumn('transId', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('payType', 'integer', (c) => c.notNull())
    .addColumn('subPayType', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('transType', 'integer', (c) => c.notNull())
    .addColumn('machineNo', 'varchar(32)', (c) => c.notNull())
    .addColumn('goodsNo', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('goodsName', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('goodsPrice', 'integer', (c) => c.notNull())
    .addColumn('payAmount', 'integer', (c) => c.notNull())
    .addColumn('aisleNo', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('orderStatus', 'integer', (c) => c.notNull())
    .addColumn('openId', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('mchId', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('subMchId', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('remark', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('createTime', 'bigint', (c) => c.notNull())
    .addColumn('payTime', 'bigint')
    .execute();
  await db.schema.createIndex('pay_order_no').unique().on('pay_order').column('orderNo').execute();
  await db.schema.createIndex('pay_order_machine_time').on('pay_order').columns(['machineNo', 'createTime', 'orderId']).execute();
  await db.schema.createIndex('pay_order_dept_time').on('pay_order').columns(['deptId', 'createTime', 'orderId']).execute();
  await db.schema.createIndex('pay_order_time').on('pay_order').columns(['createTime', 'orderId']).execute();
}
