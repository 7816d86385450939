import { sql, type Kysely } from 'kysely';
import { consoleRoutes, menuGroups, permissionTable, RoleId, type GrantedRole, type PermissionCode } from '@huiyun/contract';
import type { Database } from './schema.ts';
import { dialectOf } from './dialect.ts';

const SYSTEM_NO = 'huiyun';
const ADMIN_ROLES = [RoleId.companyAdmin, RoleId.superAdmin];

// The reference data every installation needs: roles, the demo company, the menu tree (from the
// contract's consoleRoutes) and the permission codes (from its permissionTable). The first accounts
// are the accounts module's (modules/system/accounts/seed.ts); server/src/seed.ts runs both at every start.
// Idempotent: it creates what is missing and never overwrites what operators changed. Menu and
// permission grants are made only when the module or code is first created, so a right an
// administrator took away stays away, and a screen added by a later release reaches the default roles.
export async function seedReferenceData(db: Kysely<Database>, now: number = Date.now()): Promise<{ demoDeptId: number }> {
  const demoDeptId = await db.transaction().execute(async (trx) => {
    await seedRoles(trx, now);
    const deptId = await seedDemoCompany(trx, now);
    await seedMenus(trx);
    await seedPermissions(trx);
    return deptId;
  });
  await resyncSerial(db, 'sys_role', 'roleId');
  return { demoDeptId };
}

async function seedRoles(trx: Kysely<Database>, now: number) {
  const roles = [
    { roleId: RoleId.companyAdmin, roleNo: 'companyAdmin', roleName: '公司管理员', isAdmin: 1 },
    { roleId: RoleId.ordinaryUser, roleNo: 'ordinaryUser', roleName: '普通用户', isAdmin: 0 },
    { roleId: RoleId.superAdmin, roleNo: 'superAdmin', roleName: '超级管理员', isAdmin: 1 },
    { roleId: RoleId.demo, roleNo: 'demo', roleName: '演示角色', isAdmin: 0 },
  ];
  for (const role of roles) {
    await trx
      .insertInto('sys_role')
      .values({ ...role, systemNo: SYSTEM_NO, addTime: now, editTime: now })
      .onConflict((oc) => oc.column('roleId').doNothing())
      .execute();
  }
}

async function seedDemoCompany(trx: Kysely<Database>, now: number): Promise<number> {
  await trx
    .insertInto('sys_dept')
    .values({ deptName: '汇云演示公司', deptNo: 'DEMO', parentId: 0, addUser: 'system', editUser: 'system', addTime: now, editTime: now })
    .onConflict((oc) => oc.column('deptNo').doNothing())
    .execute();
  const dept = await trx.selectFrom('sys_dept').select('deptId').where('deptNo', '=', 'DEMO').executeTakeFirstOrThrow();
  return dept.deptId;
}

async function seedMenus(trx: Kysely<Database>) {
  for (const [groupIndex, group] of menuGroups.entries()) {
    const groupId = await ensureModule(trx, {
      parentId: 0, moduleLevel: 1, isLeaf: 0, moduleIcon: group.icon, moduleOrder: (groupIndex + 1) * 10,
      moduleName: group.name, moduleUrl: group.url,
    }, group.key === 'task' ? 'everyone' : 'admins');
    const routes = consoleRoutes.filter((r) => r.group === group.key);
    for (const [index, route] of routes.entries()) {
      await ensureModule(trx, {
        parentId: groupId, moduleLevel: 2, isLeaf: 1, moduleIcon: route.icon, moduleOrder: index + 1,
        moduleName: route.name, moduleUrl: route.url,
      }, route.superAdminOnly ? 'superAdmin' : route.ordinaryUser ? 'everyone' : 'admins');
    }
  }
}

type ModuleSeed = { parentId: number; moduleLevel: number; isLeaf: number; moduleIcon: string; moduleOrder: number; moduleName: string; moduleUrl: string };

/** Whose menu rights a new module is seeded into: the super administrator's alone, both administrator roles', or every default role's. */
type MenuAudience = 'superAdmin' | 'admins' | 'everyone';
const audienceRoles: Record<MenuAudience, number[]> = {
  superAdmin: [RoleId.superAdmin],
  admins: ADMIN_ROLES,
  everyone: [...ADMIN_ROLES, RoleId.ordinaryUser, RoleId.demo],
};

async function ensureModule(trx: Kysely<Database>, module: ModuleSeed, audience: MenuAudience): Promise<number> {
  const found = await trx.selectFrom('sys_module').select('moduleId').where('moduleUrl', '=', module.moduleUrl).executeTakeFirst();
  if (found) return found.moduleId;
  const { moduleId } = await trx
    .insertInto('sys_module')
    .values({ ...module, systemNo: SYSTEM_NO, fullIndex: '', moduleNotes: '' })
    .returning('moduleId')
    .executeTakeFirstOrThrow();
  await trx.updateTable('sys_module').set({ fullIndex: module.parentId ? `${module.parentId},${moduleId}` : String(moduleId) }).where('moduleId', '=', moduleId).execute();
  await trx.insertInto('sys_role_right').values(audienceRoles[audience].map((roleId) => ({ roleId, moduleId }))).execute();
  return moduleId;
}

async function seedPermissions(trx: Kysely<Database>) {
  const roleIds: Record<GrantedRole, number> = { companyAdmin: RoleId.companyAdmin, ordinaryUser: RoleId.ordinaryUser, demo: RoleId.demo };
  for (const [code, { name, roles: grantedTo }] of Object.entries(permissionTable) as [PermissionCode, (typeof permissionTable)[PermissionCode]][]) {
    const found = await trx.selectFrom('sys_permission').select('permissionId').where('permission', '=', code).executeTakeFirst();
    if (found) continue;
    const { permissionId } = await trx
      .insertInto('sys_permission')
      .values({ permissionName: name, permission: code })
      .returning('permissionId')
      .executeTakeFirstOrThrow();
    const roles = [RoleId.superAdmin, ...grantedTo.map((r) => roleIds[r])];
    await trx.insertInto('sys_role_permission').values(roles.map((roleId) => ({ roleId, permissionId }))).execute();
  }
}

/** After rows inserted with explicit ids: PostgreSQL's serial sequence moves past them (SQLite needs nothing). */
export async function resyncSerial(db: Kysely<Database>, table: 'sys_role' | 'sys_user', column: 'roleId' | 'userId'): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`select setval(pg_get_serial_sequence(${table}, ${column}), (select max(${sql.ref(column)}) from ${sql.table(table)}))`.execute(db);
}
