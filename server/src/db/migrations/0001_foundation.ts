import type { Kysely } from 'kysely';
import { withAudit, withAutoId } from './helpers.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await withAudit(
    withAutoId(db, db.schema.createTable('sys_dept'), 'deptId')
      .addColumn('deptName', 'varchar(100)', (c) => c.notNull())
      .addColumn('deptNo', 'varchar(64)', (c) => c.notNull())
      .addColumn('parentId', 'integer', (c) => c.notNull().defaultTo(0)),
  ).execute();
  await db.schema.createIndex('sys_dept_deptNo').unique().on('sys_dept').column('deptNo').execute();

  await withAutoId(db, db.schema.createTable('sys_role'), 'roleId')
    .addColumn('systemNo', 'varchar(64)', (c) => c.notNull())
    .addColumn('roleNo', 'varchar(64)', (c) => c.notNull())
    .addColumn('roleName', 'varchar(100)', (c) => c.notNull())
    .addColumn('isAdmin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('addTime', 'bigint', (c) => c.notNull())
    .addColumn('editTime', 'bigint', (c) => c.notNull())
    .execute();

  await withAudit(
    withAutoId(db, db.schema.createTable('sys_user'), 'userId')
      .addColumn('userName', 'varchar(64)', (c) => c.notNull())
      .addColumn('userRealName', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('passwordHash', 'varchar(255)', (c) => c.notNull())
      .addColumn('userSex', 'varchar(8)', (c) => c.notNull().defaultTo(''))
      .addColumn('userMobile', 'varchar(20)', (c) => c.notNull().defaultTo(''))
      .addColumn('userEmail', 'varchar(128)', (c) => c.notNull().defaultTo(''))
      .addColumn('isLock', 'varchar(1)', (c) => c.notNull().defaultTo('N'))
      .addColumn('deptId', 'integer', (c) => c.references('sys_dept.deptId').onDelete('set null'))
      .addColumn('roleId', 'integer', (c) => c.notNull().references('sys_role.roleId'))
      .addColumn('systemNo', 'varchar(64)', (c) => c.notNull().defaultTo('')),
  ).execute();
  await db.schema.createIndex('sys_user_userName').unique().on('sys_user').column('userName').execute();
  await db.schema.createIndex('sys_user_deptId').on('sys_user').column('deptId').execute();

  await withAutoId(db, db.schema.createTable('sys_module'), 'moduleId')
    .addColumn('parentId', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('moduleLevel', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('systemNo', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('isLeaf', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('fullIndex', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('moduleIcon', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('moduleOrder', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('moduleName', 'varchar(64)', (c) => c.notNull())
    .addColumn('moduleNotes', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('moduleUrl', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('sys_module_url').unique().on('sys_module').column('moduleUrl').execute();

  await db.schema
    .createTable('sys_role_right')
    .addColumn('roleId', 'integer', (c) => c.notNull().references('sys_role.roleId').onDelete('cascade'))
    .addColumn('moduleId', 'integer', (c) => c.notNull().references('sys_module.moduleId').onDelete('cascade'))
    .addPrimaryKeyConstraint('sys_role_right_pk', ['roleId', 'moduleId'])
    .execute();

  await withAutoId(db, db.schema.createTable('sys_permission'), 'permissionId')
    .addColumn('permissionName', 'varchar(100)', (c) => c.notNull())
    .addColumn('permission', 'varchar(100)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sys_permission_code').unique().on('sys_permission').column('permission').execute();

  await db.schema
    .createTable('sys_role_permission')
    .addColumn('roleId', 'integer', (c) => c.notNull().references('sys_role.roleId').onDelete('cascade'))
    .addColumn('permissionId', 'integer', (c) => c.notNull().references('sys_permission.permissionId').onDelete('cascade'))
    .addPrimaryKeyConstraint('sys_role_permission_pk', ['roleId', 'permissionId'])
    .execute();

  await db.schema
    .createTable('sys_user_dept')
    .addColumn('userId', 'integer', (c) => c.notNull().references('sys_user.userId').onDelete('cascade'))
    .addColumn('deptId', 'integer', (c) => c.notNull().references('sys_dept.deptId').onDelete('cascade'))
    .addPrimaryKeyConstraint('sys_user_dept_pk', ['userId', 'deptId'])
    .execute();

  await withAudit(
    withAutoId(db, db.schema.createTable('sys_variable'), 'varId')
      .addColumn('varLable', 'varchar(100)', (c) => c.notNull())
      .addColumn('varName', 'varchar(100)', (c) => c.notNull())
      .addColumn('varValue', 'varchar(2000)', (c) => c.notNull())
      .addColumn('deptId', 'integer', (c) => c.references('sys_dept.deptId').onDelete('set null')),
  ).execute();
  await db.schema.createIndex('sys_variable_varName').unique().on('sys_variable').column('varName').execute();

  await db.schema
    .createTable('sys_session')
    .addColumn('tokenHash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('userId', 'integer', (c) => c.notNull().references('sys_user.userId').onDelete('cascade'))
    .addColumn('createdAt', 'bigint', (c) => c.notNull())
    .addColumn('lastSeenAt', 'bigint', (c) => c.notNull())
    .addColumn('idleMs', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('userAgent', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('sys_session_userId').on('sys_session').column('userId').execute();
}
