import { useEffect, useMemo, useState, type Key } from 'react';
import { Spin, Tree, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { fill, messages, type Role, type RoleGrantTree } from '@huiyun/contract';
import { queryKeys } from '../../../api/queryKeys.ts';
import { fetchRoleGrants, saveRoleGrants } from '../../../api/role.ts';
import { FormDialog } from '../../../components/FormDialog/index.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';
import { initialTicks, moduleKey, toGrants, toTreeData, withListTicks } from './menuRights.ts';

const m = messages.role;

type Props = { role: Role | null; onClose: () => void };

const emptyTree: RoleGrantTree = { modules: [], actions: [] };

/**
 * 菜单权限: the role's screens and, under each, its actions (permission codes) as one checkable tree;
 * saving writes both at once (权限管理 shows the same grants).
 */
export function RoleRightDialog({ role, onClose }: Props) {
  const queryClient = useQueryClient();
  // Read anew at each opening (no cache kept): the grants may have changed in 权限管理 meanwhile.
  const grants = useQuery({
    queryKey: queryKeys.options('role', 'grants', role?.roleId ?? 0),
    queryFn: () => fetchRoleGrants(role!.roleId),
    enabled: role !== null,
    gcTime: 0,
    meta: { errorText: m.rightsLoadFailed },
  });
  const tree = grants.data ?? emptyTree;
  const loading = grants.isFetching;
  const [checked, setChecked] = useState<Key[]>([]);
  useEffect(() => setChecked(grants.data ? initialTicks(grants.data) : []), [grants.data]);

  const treeData = useMemo(() => toTreeData(tree), [tree]);
  // Groups open; a screen's actions show when it is opened.
  const expanded = useMemo(() => tree.modules.filter((n) => n.open).map((n) => moduleKey(n.id)), [tree]);

  const saver = useServerAction(
    'role',
    ({ roleId, ticked }: { roleId: number; ticked: Key[] }) => {
      const { moduleIds, permissionIds } = toGrants(tree, ticked);
      return saveRoleGrants(roleId, moduleIds, permissionIds);
    },
    // The caller's own side menu may have changed with it.
    { onDone: () => void queryClient.invalidateQueries({ queryKey: ['currentUser'] }) },
  );
  const save = async () => (role ? saver.run({ roleId: role.roleId, ticked: checked }, m.rightsSaveFailed) : false);

  return (
    <FormDialog
      open={role !== null}
      title={fill(m.menuRightsTitle, { roleName: role?.roleName ?? '' })}
      // Without a loaded tree a save would wipe the role's rights.
      okDisabled={loading || tree.modules.length === 0}
      onFinish={save}
      onClose={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{m.menuRightsHint}</Typography.Paragraph>
      <Spin spinning={loading}>
        <div style={{ maxHeight: 480, overflow: 'auto', minHeight: 80 }}>
          {treeData.length > 0 && (
            <Tree
              checkable
              selectable={false}
              treeData={treeData}
              defaultExpandedKeys={expanded}
              checkedKeys={checked}
              onCheck={(keys) => setChecked(withListTicks(tree, Array.isArray(keys) ? keys : keys.checked))}
            />
          )}
        </div>
      </Spin>
    </FormDialog>
  );
}
