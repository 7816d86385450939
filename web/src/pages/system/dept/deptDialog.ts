import { messages, Perm, type Dept } from '@huiyun/contract';
import { saveDept } from '../../../api/dept.ts';
import type { EditConfig } from '../../../components/ListPage/index.ts';

const m = messages.dept;

// The save schema (and zod with it) loads with the dialog, not with the list.
const loadSchema = () => import('../../../api/saveSchemas.ts').then((s) => s.deptSave);

/** The add / edit dialog of 公司管理: name and code, rules from the contract schema. */
export function deptDialog(options: { canAdd: boolean }): EditConfig<Dept> {
  return {
    entityName: m.entityName,
    schema: loadSchema,
    fields: [
      { name: 'deptName', label: m.deptName },
      { name: 'deptNo', label: m.deptNo },
    ],
    toFormValues: (row) => ({ deptName: row.deptName, deptNo: row.deptNo }),
    save: (values, editing) =>
      saveDept({
        deptId: editing?.deptId,
        deptName: String(values.deptName ?? ''),
        deptNo: String(values.deptNo ?? ''),
      }),
    failText: m.saveFailed,
    permission: Perm.deptSave,
    canAdd: options.canAdd,
  };
}
