import { messages, Perm, type Dept } from '@huiyun/contract';
import { deleteDepts, exportDepts, listDepts, type DeptFilters } from '../../../api/dept.ts';
import { ListPage, type ListColumn } from '../../../components/ListPage/index.ts';
import { usePermission } from '../../../shared/useCurrentUser.ts';
import { deptDialog } from './deptDialog.ts';

const m = messages.dept;

const columns: ListColumn<Dept>[] = [
  { key: 'deptName', title: m.deptName, sortable: true },
  { key: 'deptNo', title: m.deptNo, sortable: true },
  { key: 'editTime', title: messages.common.editTime, sortable: true, width: 180 },
  { key: 'editUser', title: messages.common.editUser, sortable: true },
];

/** 公司管理 (SPEC §2.4): search by name and code, add, edit, delete; the companies of the caller's scope. */
export function DeptPage() {
  // Only the super administrator adds companies (a new one would lie outside everybody else's scope).
  const isSuperAdmin = usePermission({ account: 'superAdministrator' });
  return (
    <ListPage<Dept, DeptFilters>
      queryKey="dept"
      rowKey="deptId"
      fetcher={listDepts}
      columns={columns}
      searchFields={[
        { name: 'deptName', label: m.deptName },
        { name: 'deptNo', label: m.deptNo },
      ]}
      edit={deptDialog({ canAdd: isSuperAdmin })}
      exporter={{ run: exportDepts, failText: messages.common.exportFailed }}
      remove={{
        run: (ids) => deleteDepts(ids.map(Number)),
        failText: m.deleteFailed,
        permission: Perm.deptDelete,
      }}
    />
  );
}
