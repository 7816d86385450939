import type { Kysely } from 'kysely';
import { withAutoId } from './helpers.ts';

// 操作日志 and 登录日志 (RuoYi's monitor screens). Neither ever holds a password or a secret.
export async function up(db: Kysely<any>): Promise<void> {
  await withAutoId(db, db.schema.createTable('sys_oper_log'), 'operId')
    .addColumn('userId', 'integer')
    .addColumn('userName', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('deptId', 'integer')
    .addColumn('module', 'varchar(64)', (c) => c.notNull())
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('target', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('method', 'varchar(10)', (c) => c.notNull().defaultTo(''))
    .addColumn('url', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('message', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('costMs', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('operTime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sys_oper_log_time').on('sys_oper_log').column('operTime').execute();

  await withAutoId(db, db.schema.createTable('sys_login_log'), 'infoId')
    .addColumn('userName', 'varchar(64)', (c) => c.notNull())
    .addColumn('userId', 'integer')
    .addColumn('deptId', 'integer')
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('userAgent', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('message', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('loginTime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sys_login_log_time').on('sys_login_log').column('loginTime').execute();
}
