import { useEffect, useMemo, useState, type Key } from 'react';
import { App, Empty, Modal, Spin, Tree } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { fill, messages, type User } from '@huiyun/contract';
import { errorText } from '../../../api/client.ts';
import { saveUserDepts, userDeptTree } from '../../../api/user.ts';
import { useServerAction } from '../../../components/ListPage/useServerAction.ts';
import { toTreeData } from './companyTree.ts';

const m = messages.user;

/** 数据权限: the caller's companies as a checkable tree; the ticked ones become the user's grants. */
export function DataScopeDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const { message } = App.useApp();
  const query = useQuery({
    queryKey: ['user-dept-tree', user?.userId],
    queryFn: () => userDeptTree(user!.userId),
    enabled: user !== null,
    gcTime: 0,
    staleTime: 0,
    retry: false,
  });
  const [checked, setChecked] = useState<Key[]>([]);
  const saver = useServerAction('user', (input: { userId: number; deptIds: number[] }) => saveUserDepts(input.userId, input.deptIds));

  useEffect(() => {
    if (query.data) setChecked(query.data.filter((n) => n.checked).map((n) => n.id));
  }, [query.data]);
  useEffect(() => {
    if (!query.error) return;
    const text = errorText(query.error, m.dataScopeLoadFailed);
    if (text) void message.error(text);
  }, [query.error, message]);

  const treeData = useMemo(() => toTreeData(query.data ?? []), [query.data]);

  const submit = async () => {
    if (!user) return;
    if (await saver.run({ userId: user.userId, deptIds: checked.map(Number) }, m.dataScopeSaveFailed)) onClose();
  };

  return (
    <Modal
      open={user !== null}
      title={fill(m.dataScopeTitle, { userName: user?.userName ?? '' })}
      okText={messages.common.save}
      cancelText={messages.common.cancel}
      okButtonProps={{ disabled: !query.data }}
      confirmLoading={saver.pending}
      onOk={() => void submit()}
      onCancel={onClose}
      maskClosable={false}
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
    </Modal>
  );
}
