import { useEffect, useMemo, useState, type Key } from 'react';
import { Spin, Tree, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { fill, messages, type Role, type RoleGrantTree } from '@huiyun/contract';
import { errorText } from '../../../api/client.ts';
import { fetchRoleGrants, saveRoleGrants } from '../../../api/role.ts';
import { FormDialog } from '../../../components/FormDialog/index.ts';
import { useToast } from '../../../shared/toast.tsx';
import { initialTicks, moduleKey, toGrants, toTreeData, withListTicks } from './menuRights.ts';

const m = messages.role;

type Props = { role: Role | null; onClose: () => void };

const emptyTree: RoleGrantTree = { modules: [], actions: [] };

/**
 * 菜单权限: the role's screens and, under each, its actions (permission codes) as one checkable tree;
 * saving writes both at once (权限管理 shows the same grants).
 */
export function RoleRightDialog({ role, onClose }: Props) {
  const message = useToast();
  const queryClient = useQueryClient();
  const [tree, setTree] = useState<RoleGrantTree>(emptyTree);
  const [checked, setChecked] = useState<Key[]>([]);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (!role) return;
    let current = true;
    setTree(emptyTree);
    setChecked([]);
    setLoading(true);
    fetchRoleGrants(role.roleId)
      .then((loaded) => {
        if (!current) return;
        setTree(loaded);
        setChecked(initialTicks(loaded));
      })
      .catch((error: unknown) => {
        const text = errorText(error, m.rightsLoadFailed);
        if (current && text) void message.error(text);
      })
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [role, message]);

  const treeData = useMemo(() => toTreeData(tree), [tree]);
  // Groups open; a screen's actions show when it is opened.
  const expanded = useMemo(() => tree.modules.filter((n) => n.open).map((n) => moduleKey(n.id)), [tree]);

  const save = async () => {
    if (!role) return false;
    try {
      const { moduleIds, permissionIds } = toGrants(tree, checked);
      void message.success(await saveRoleGrants(role.roleId, moduleIds, permissionIds));
      // The caller's own side menu may have changed with it.
      await queryClient.invalidateQueries({ queryKey: ['currentUser'] });
      return true;
    } catch (error) {
      const text = errorText(error, m.rightsSaveFailed);
      if (text) void message.error(text);
      return false;
    }
  };

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
