import { useEffect, useMemo, useState, type Key } from 'react';
import { Empty, Spin, Tree } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { fill, messages, type User } from '@huiyun/contract';
import { saveUserDepts, userDeptTree } from '../../../api/user.ts';
import { queryKeys } from '../../../api/queryKeys.ts';
import { FormDialog } from '../../../components/FormDialog/index.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';
import { toTreeData } from './companyTree.ts';

const m = messages.user;

/** 数据权限: the caller's companies as a checkable tree; the ticked ones become the user's grants. */
export function DataScopeDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const query = useQuery({
    queryKey: queryKeys.options('dept', 'grantsOf', user?.userId ?? 0),
    queryFn: () => userDeptTree(user!.userId),
    enabled: user !== null,
    gcTime: 0,
    staleTime: 0,
    retry: false,
    meta: { errorText: m.dataScopeLoadFailed },
  });
  const [checked, setChecked] = useState<Key[]>([]);
  const saver = useServerAction('user', (input: { userId: number; deptIds: number[] }) => saveUserDepts(input.userId, input.deptIds));

  useEffect(() => {
    if (query.data) setChecked(query.data.filter((n) => n.checked).map((n) => n.id));
  }, [query.data]);

  const treeData = useMemo(() => toTreeData(query.data ?? []), [query.data]);

  const save = async () => user !== null && saver.run({ userId: user.userId, deptIds: checked.map(Number) }, m.dataScopeSaveFailed);

  return (
    <FormDialog
      open={user !== null}
      title={fill(m.dataScopeTitle, { userName: user?.userName ?? '' })}
      okDisabled={!query.data}
      onFinish={save}
      onClose={onClose}
      destroyOnHidden
    >
      <Spin spinning={query.isFetching}>
        {treeData.length > 0 ? (
          <Tree
            className="data-scope-tree"
            checkable
            checkStrictly
            selectable={false}
            defaultExpandAll
            treeData={treeData}
            checkedKeys={checked}
            onCheck={(keys) => setChecked(Array.isArray(keys) ? keys : keys.checked)}
          />
        ) : (
          !query.isFetching && <Empty description={m.noCompanies} />
        )}
      </Spin>
    </FormDialog>
  );
}
