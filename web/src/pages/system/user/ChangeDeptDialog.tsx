import { useEffect, useMemo, useState } from 'react';
import { Empty, Spin, Tree } from 'antd';
import { fill, messages, type User } from '@huiyun/contract';
import { changeDept } from '../../../api/user.ts';
import { FormDialog } from '../../../components/FormDialog/index.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';
import { toTreeData, useCompanyTree } from './companyTree.ts';
import { useToast } from '../../../shared/toast.tsx';

const m = messages.user;

/** 部门设置: moves the selected users to the company picked in the tree. */
export function ChangeDeptDialog({ users, onClose }: { users: User[] | null; onClose: () => void }) {
  const message = useToast();
  const open = users !== null;
  const query = useCompanyTree(open);
  const [deptId, setDeptId] = useState<number | null>(null);
  const saver = useServerAction('user', (input: { userIds: number[]; deptId: number; deptName: string }) =>
    changeDept(input.userIds, input.deptId, input.deptName),
  );

  useEffect(() => {
    if (open) setDeptId(null);
  }, [open]);

  const treeData = useMemo(() => toTreeData(query.data ?? []), [query.data]);

  const save = async () => {
    if (!users) return false;
    if (deptId === null) {
      void message.warning(m.deptRequired);
      return false;
    }
    const deptName = query.data?.find((n) => n.id === deptId)?.name ?? '';
    return saver.run({ userIds: users.map((u) => u.userId), deptId, deptName }, m.changeDeptFailed);
  };

  return (
    <FormDialog
      open={open}
      title={fill(m.changeDeptTitle, { count: users?.length ?? 0 })}
      okText={messages.common.ok}
      onFinish={save}
      onClose={onClose}
      destroyOnHidden
    >
      <Spin spinning={query.isFetching}>
        {treeData.length > 0 ? (
          <Tree
            className="change-dept-tree"
            defaultExpandAll
            treeData={treeData}
            selectedKeys={deptId === null ? [] : [deptId]}
            onSelect={(keys) => setDeptId(keys.length ? Number(keys[0]) : null)}
          />
        ) : (
          !query.isFetching && <Empty description={m.noCompanies} />
        )}
      </Spin>
    </FormDialog>
  );
}
