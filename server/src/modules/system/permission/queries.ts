import { sql, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { permissionSortFields, permissionTable, RoleId, type Permission, type PermissionListQuery } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { listPage, sortColumnsOf, type SelectedRow } from '../../../db/list/paging.ts';
import { contains, type ListSearch } from '../../../db/list/search.ts';

const sortColumns = sortColumnsOf(permissionSortFields, { table: 'p' });

/** Codes the server declares on its routes (contract permissionTable). */
export function isBuiltInCode(code: string): boolean {
  return Object.hasOwn(permissionTable, code);
}

/** One page of permissions; with a roleId each row says whether that role holds it. */
export async function listPermissions(db: Kysely<Database>, query: PermissionListQuery) {
  const filtered = db.selectFrom('sys_permission as p');
  const searches: ListSearch[] = [];
  if (query.permissionName) searches.push(contains(db, 'sys_permission', 'p.permissionName', query.permissionName));
  if (query.permission) searches.push(contains(db, 'sys_permission', 'p.permission', query.permission));
  const roleId = query.roleId;
  const { rows, ...paged } = await listPage(
    db,
    filtered,
    (qb) => permissionColumns(qb, roleId),
    query,
    { sortColumns, defaultSort: ['p.permissionId', 'desc'], tieBreaker: 'p.permissionId', searches },
  );
  return { rows: rows.map((row) => toPermission(row, roleId !== undefined)), ...paged };
}

/** A page's columns; with a roleId, whether that role holds the code (granted). */
function permissionColumns(qb: SelectQueryBuilder<Database & { p: Database['sys_permission'] }, 'p', {}>, roleId: number | undefined) {
  return qb.select(['p.permissionId', 'p.permissionName', 'p.permission']).$if(roleId !== undefined, (withGrant) => roleId === RoleId.superAdmin
    // The super administrator holds every code whatever its grant rows say (modules/system/auth/access.ts).
    ? withGrant.select(sql<SqlBool>`1 = 1`.as('granted'))
    : withGrant.select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('sys_role_permission as rp')
            .select('rp.permissionId')
            .whereRef('rp.permissionId', '=', 'p.permissionId')
            .where('rp.roleId', '=', roleId!), // $if: only with a roleId
        )
        .as('granted'),
    ));
}

function toPermission(row: SelectedRow<typeof permissionColumns>, withGranted: boolean): Permission {
  const result: Permission = {
    permissionId: row.permissionId,
    permissionName: row.permissionName,
    permission: row.permission,
    builtIn: isBuiltInCode(row.permission),
  };
  // SQLite answers 0/1, PostgreSQL true/false.
  if (withGranted) result.granted = row.granted === true || Number(row.granted) === 1;
  return result;
}

/** The permission ids a role holds (all of them for the super administrator). */
export async function grantedPermissionIds(db: Kysely<Database>, roleId: number): Promise<number[]> {
  const rows = roleId === RoleId.superAdmin
    ? await db.selectFrom('sys_permission').select('permissionId').orderBy('permissionId').execute()
    : await db.selectFrom('sys_role_permission').select('permissionId').where('roleId', '=', roleId).orderBy('permissionId').execute();
  return rows.map((r) => r.permissionId);
}
