import { useEffect, useMemo, useState, type Key } from 'react';
import { Spin, Tree, type TreeDataNode } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { fill, messages, type Role, type RoleRightNode } from '@huiyun/contract';
import { errorText } from '../../../api/client.ts';
import { fetchRoleRights, saveRoleRights } from '../../../api/role.ts';
import { FormDialog } from '../../../components/FormDialog/index.ts';
import { useToast } from '../../../app/toast.tsx';

const m = messages.role;

type Props = { role: Role | null; onClose: () => void };

/** The flat nodes (id, pId) as antd tree data. */
function toTreeData(nodes: RoleRightNode[]): TreeDataNode[] {
  const children = new Map<number, TreeDataNode[]>();
  const ids = new Set(nodes.map((n) => n.id));
  const roots: TreeDataNode[] = [];
  for (const node of nodes) {
    const item: TreeDataNode = { key: node.id, title: node.name };
    const list = ids.has(node.pId) ? (children.get(node.pId) ?? children.set(node.pId, []).get(node.pId)!) : roots;
    list.push(item);
  }
  const attach = (items: TreeDataNode[]): TreeDataNode[] =>
    items.map((item) => {
      const kids = children.get(item.key as number);
      return kids ? { ...item, children: attach(kids) } : item;
    });
  return attach(roots);
}

/** 菜单权限: the role's menu rights as a checkable tree; saving replaces them. */
export function RoleRightDialog({ role, onClose }: Props) {
  const message = useToast();
  const queryClient = useQueryClient();
  const [nodes, setNodes] = useState<RoleRightNode[]>([]);
  const [checked, setChecked] = useState<Key[]>([]);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (!role) return;
    let current = true;
    setNodes([]);
    setChecked([]);
    setLoading(true);
    fetchRoleRights(role.roleId)
      .then((loaded) => {
        if (!current) return;
        const parents = new Set(loaded.map((n) => n.pId));
        setNodes(loaded);
        // Only the screens: a group's own tick follows from its screens (a group key would tick them all).
        setChecked(loaded.filter((n) => n.checked && !parents.has(n.id)).map((n) => n.id));
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

  const treeData = useMemo(() => toTreeData(nodes), [nodes]);
  const expanded = useMemo(() => nodes.filter((n) => n.open).map((n) => n.id), [nodes]);

  const save = async () => {
    if (!role) return false;
    try {
      const text = await saveRoleRights(role.roleId, checked.map(Number));
      void message.success(text);
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
      okDisabled={loading || nodes.length === 0}
      onFinish={save}
      onClose={onClose}
      destroyOnHidden
    >
      <Spin spinning={loading}>
        <div style={{ maxHeight: 480, overflow: 'auto', minHeight: 80 }}>
          {treeData.length > 0 && (
            <Tree
              checkable
              selectable={false}
              treeData={treeData}
              defaultExpandedKeys={expanded}
              checkedKeys={checked}
              onCheck={(keys) => setChecked(Array.isArray(keys) ? keys : keys.checked)}
            />
          )}
        </div>
      </Spin>
    </FormDialog>
  );
}
