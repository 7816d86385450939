import { Button, Checkbox, Select, Space, Tag, Typography } from 'antd';
import { SafetyOutlined } from '../../../shared/icons.tsx';
import { messages, Perm, type Permission } from '@huiyun/contract';
import { deletePermissions, exportPermissions, listPermissions, type PermissionFilters } from '../../../api/permission.ts';
import { ListPage, type ListColumn } from '../../../components/ListPage/index.ts';
import { permissionDialog } from './permissionDialog.ts';
import { useRoleGrants } from './useRoleGrants.ts';

const m = messages.permission;

const baseColumns: ListColumn<Permission>[] = [
  { key: 'permissionName', title: m.permissionName, sortable: true },
  { key: 'permission', title: m.permission, sortable: true },
  { key: 'builtIn', title: m.builtIn, width: 100, render: (builtIn: boolean) => (builtIn ? <Tag>{m.builtIn}</Tag> : null) },
];

/**
 * 权限管理 (SPEC §2.10): search by name and code, add, edit, delete; choose a role in the toolbar,
 * tick its permissions (kept across pages) and save them with 配置权限. The same grants as 角色管理 →
 * 菜单权限, code by code.
 */
export function PermissionPage() {
  const grants = useRoleGrants();

  const grantColumn: ListColumn<Permission> = {
    key: 'granted',
    title: m.granted,
    width: 80,
    render: (_value, row) => (
      <Checkbox
        className="grant-tick"
        aria-label={`${m.granted} ${row.permission}`}
        checked={grants.ticks.has(row.permissionId)}
        disabled={grants.loadingTicks}
        onChange={(event) => grants.toggle(row.permissionId, event.target.checked)}
      />
    ),
  };
  // With a role chosen the 授权 ticks are the table's one checkbox column: delete, and with it the row
  // selection, waits until the role is cleared (two checkbox columns side by side read as one).
  const granting = grants.roleId !== undefined;
  const columns = granting ? [grantColumn, ...baseColumns] : baseColumns;

  return (
    <ListPage<Permission, PermissionFilters>
      queryKey="permission"
      rowKey="permissionId"
      fetcher={listPermissions}
      columns={columns}
      searchFields={[
        { name: 'permissionName', label: m.permissionName },
        { name: 'permission', label: m.permission },
      ]}
      edit={permissionDialog()}
      exporter={{ run: exportPermissions, failText: messages.common.exportFailed }}
      remove={{
        run: async (ids) => {
          const text = await deletePermissions(ids.map(Number));
          grants.forget(ids.map(Number));
          return text;
        },
        failText: m.deleteFailed,
        permission: Perm.permissionDelete,
        hidden: granting,
      }}
      toolbar={[
        {
          key: 'role',
          render: () => (
            <Space className="role-grant-toolbar">
              <Typography.Text>{m.role}</Typography.Text>
              <Select<number>
                className="role-select"
                aria-label={m.role}
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={m.roleRequired}
                loading={grants.rolesLoading}
                style={{ minWidth: 180 }}
                value={grants.roleId}
                onChange={(value) => grants.setRoleId(value ?? undefined)}
                options={grants.roles.map((r) => ({ value: r.roleId, label: r.roleName }))}
              />
            </Space>
          ),
        },
        {
          key: 'grant',
          permission: Perm.permissionGrant,
          render: () => (
            <Button icon={<SafetyOutlined />} loading={grants.saving} onClick={() => void grants.configure()}>
              {m.configure}
            </Button>
          ),
        },
      ]}
    />
  );
}
