import { lazy, Suspense, useState } from 'react';
import { Tag } from 'antd';
import { messages, Perm, RoleId, type Role } from '@huiyun/contract';
import { deleteRoles, exportRoles, listRoles, type RoleFilters } from '../../../api/role.ts';
import { ListPage, type ListColumn } from '../../../components/ListPage/index.ts';
import { useOpenedOnce } from '../../../components/useOpenedOnce.ts';

// The add / edit dialog (antd Form, the role schema and zod) and the menu-permission tree load when first opened.
const RoleDialog = lazy(() => import('./RoleDialog.tsx').then((d) => ({ default: d.RoleDialog })));
const RoleRightDialog = lazy(() => import('./RoleRightDialog.tsx').then((d) => ({ default: d.RoleRightDialog })));

const m = messages.role;

const columns: ListColumn<Role>[] = [
  { key: 'roleId', title: m.roleId, sortable: true, width: 80 },
  { key: 'systemNo', title: m.systemNo, sortable: true },
  { key: 'roleNo', title: m.roleNo, sortable: true },
  { key: 'roleName', title: m.roleName, sortable: true },
  { key: 'isAdmin', title: m.isAdmin, width: 90, render: (isAdmin: boolean) => (isAdmin ? <Tag color="blue">{m.yes}</Tag> : <Tag>{m.no}</Tag>) },
  { key: 'userCount', title: m.userCount, width: 90 },
  { key: 'editTime', title: messages.common.editTime, sortable: true, width: 170 },
];

/** 角色管理 (SPEC §2.8): search by name and code, add, edit, delete, menu-permission tree. */
export function RolePage() {
  const [granting, setGranting] = useState<Role | null>(null);
  const grantingOpened = useOpenedOnce(granting !== null);
  return (
    <>
      <ListPage<Role, RoleFilters>
        queryKey="role"
        rowKey="roleId"
        fetcher={listRoles}
        columns={columns}
        searchFields={[
          { name: 'roleName', label: m.roleName },
          { name: 'roleNo', label: m.roleNo },
        ]}
        edit={{ permission: Perm.roleSave, dialog: RoleDialog }}
        rowActions={[
          {
            key: 'menuRights',
            label: m.menuRights,
            // The super administrator holds every menu; there is nothing to configure.
            permission: Perm.roleGrantMenu,
            visible: (row) => row.roleId !== RoleId.superAdmin,
            onClick: (row) => setGranting(row),
          },
        ]}
        exporter={{ run: exportRoles, failText: messages.common.exportFailed }}
        remove={{ run: (ids) => deleteRoles(ids.map(Number)), failText: m.deleteFailed, permission: Perm.roleDelete }}
      />
      {grantingOpened && (
        <Suspense fallback={null}>
          <RoleRightDialog role={granting} onClose={() => setGranting(null)} />
        </Suspense>
      )}
    </>
  );
}
