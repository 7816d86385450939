import { useMemo, useState } from 'react';
import { Button } from 'antd';
import { ApartmentOutlined } from '../../../shared/icons.tsx';
import { useQuery } from '@tanstack/react-query';
import { fill, lockStatusOptions, messages, Perm, RoleId, SUPER_ADMIN_USER_ID, type User } from '@huiyun/contract';
import { deleteUsers, exportUsers, forceOffline, listUsers, refreshCache, resetPassword, type UserFilters } from '../../../api/user.ts';
import { roleOptionsQuery } from '../../../api/role.ts';
import { ListPage, type ListColumn, type RowAction } from '../../../components/ListPage/index.ts';
import { useCurrentUser, usePermission } from '../../../shared/useCurrentUser.ts';
import { ChangeDeptDialog } from './ChangeDeptDialog.tsx';
import { useCompanyTree } from './companyTree.ts';
import { DataScopeDialog } from './DataScopeDialog.tsx';
import { LockSwitch } from './LockSwitch.tsx';
import { PasswordDialog, type ShownPassword } from './PasswordDialog.tsx';
import { userDialog } from './userDialog.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';

const m = messages.user;

/** 用户管理 (SPEC §2.6): search, add, edit, delete, lock, reset password, data permission, force offline, refresh cache, department. */
export function UserPage() {
  const me = useCurrentUser().data;
  const mayGrantCompanies = usePermission(Perm.userDataScope);
  const mayLock = usePermission(Perm.userLock);
  // The super administrator role is given only by the super administrator.
  const isSuperAdmin = usePermission({ account: 'superAdministrator' });
  const [shownPassword, setShownPassword] = useState<ShownPassword | null>(null);
  const [dataScopeUser, setDataScopeUser] = useState<User | null>(null);
  const [deptUsers, setDeptUsers] = useState<User[] | null>(null);

  const roles = useQuery({ ...roleOptionsQuery, meta: { errorText: m.roleLoadFailed } });
  const companies = useCompanyTree(mayGrantCompanies, { silent: true });

  const roleOptions = useMemo(
    () => (roles.data ?? [])
      // The rule is about the role itself: the super administrator role is offered to the super administrator only.
      .filter((r) => isSuperAdmin || r.roleId !== RoleId.superAdmin)
      .map((r) => ({ value: r.roleId, label: r.roleName })),
    [roles.data, isSuperAdmin],
  );
  const companyOptions = useMemo(() => (companies.data ?? []).map((c) => ({ value: c.id, label: c.name })), [companies.data]);

  /** Account 1 and the caller itself cannot be locked (the server refuses anyway). */
  const lockable = (user: User) => mayLock && user.userId !== SUPER_ADMIN_USER_ID && user.userId !== me?.userId;

  // At 1366 px: account, name, mobile, company, role, lock; sex, e-mail and who / when edited from 1600 px.
  const columns: ListColumn<User>[] = [
    { key: 'userName', title: m.userName, sortable: true },
    { key: 'userRealName', title: m.userRealName, sortable: true },
    { key: 'userSex', title: m.userSex, width: 70, secondary: true },
    { key: 'userMobile', title: m.userMobile, sortable: true },
    { key: 'userEmail', title: m.userEmail, secondary: true },
    { key: 'deptName', title: m.deptName, sortable: true },
    { key: 'roleName', title: m.roleName, sortable: true },
    {
      key: 'isLock', title: m.isLock, sortable: true, width: 90, ellipsis: false,
      render: (_value, user) => <LockSwitch user={user} disabled={!lockable(user)} />,
    },
    { key: 'editUser', title: messages.common.editUser, sortable: true, secondary: true },
    { key: 'editTime', title: messages.common.editTime, sortable: true, width: 180, secondary: true },
  ];

  const reset = useServerAction('user', (user: User) => resetPassword(user.userId), {
    successText: (answer) => answer.msg,
    onDone: (answer) => setShownPassword({ userName: answer.data.userName, password: answer.data.password }),
  });
  const askResetPassword = (user: User) => reset.run(user, m.resetPwdFailed);

  const rowActions: RowAction<User>[] = [
    { key: 'resetPwd', label: m.resetPwd, permission: Perm.userResetPwd, confirm: (u) => fill(m.resetPwdConfirm, { userName: u.userName }), onClick: (u) => void askResetPassword(u) },
    { key: 'dataScope', label: m.dataScope, permission: Perm.userDataScope, onClick: (u) => setDataScopeUser(u) },
    {
      key: 'forceOffline', label: m.forceOffline, permission: Perm.userExpireToken,
      confirm: (u) => fill(m.forceOfflineConfirm, { userName: u.userName }),
      run: (u) => forceOffline(u.userName), failText: m.forceOfflineFailed,
    },
    { key: 'flashCache', label: m.flashCache, permission: Perm.userFlashCache, run: (u) => refreshCache(u.userName), failText: m.flashCacheFailed },
  ];

  return (
    <>
      <ListPage<User, UserFilters>
        queryKey="user"
        rowKey="userId"
        fetcher={listUsers}
        columns={columns}
        selectable
        searchFields={[
          { name: 'isLock', label: m.isLock, type: 'select', options: [{ value: '', label: m.lockAll }, ...lockStatusOptions] },
          { name: 'userName', label: m.userName },
          { name: 'userMobile', label: m.userMobile },
        ]}
        edit={userDialog({
          roles: roleOptions,
          companies: companyOptions,
          onCreated: (userName, password) => setShownPassword({ userName, password }),
        })}
        rowActions={rowActions}
        toolbar={[
          {
            key: 'changeDept',
            permission: Perm.userChangeDept,
            render: (ctx) => (
              <Button icon={<ApartmentOutlined />} disabled={ctx.selectedRows.length === 0} onClick={() => setDeptUsers(ctx.selectedRows)}>
                {m.changeDept}
              </Button>
            ),
          },
        ]}
        exporter={{ run: exportUsers, failText: messages.common.exportFailed }}
        remove={{ run: (ids) => deleteUsers(ids.map(Number)), failText: messages.common.deleteFailed, permission: Perm.userDelete }}
      />
      <PasswordDialog shown={shownPassword} onClose={() => setShownPassword(null)} />
      <DataScopeDialog user={dataScopeUser} onClose={() => setDataScopeUser(null)} />
      <ChangeDeptDialog users={deptUsers} onClose={() => setDeptUsers(null)} />
    </>
  );
}
