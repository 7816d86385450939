import { messages, Perm, type Variable } from '@huiyun/contract';
import { deleteVariables, exportVariables, listVariables, type VariableFilters } from '../../../api/variable.ts';
import { ListPage, type ListColumn } from '../../../components/ListPage/index.ts';
import { variableDialog } from './variableDialog.ts';

const m = messages.variable;

const columns: ListColumn<Variable>[] = [
  { key: 'varLable', title: m.varLable, sortable: true },
  { key: 'varName', title: m.varName, sortable: true },
  { key: 'varValue', title: m.varValue, sortable: true },
  { key: 'editUser', title: messages.common.editUser, sortable: true },
  { key: 'editTime', title: messages.common.editTime, sortable: true, width: 180 },
];

/** 系统环境变量 (SPEC §2.9): search, add, edit, delete. */
export function VariablePage() {
  return (
    <ListPage<Variable, VariableFilters>
      queryKey="variable"
      rowKey="varId"
      fetcher={listVariables}
      columns={columns}
      searchFields={[
        { name: 'varLable', label: m.varLable },
        { name: 'varName', label: m.varName },
      ]}
      edit={variableDialog()}
      exporter={{ run: exportVariables, failText: messages.common.exportFailed }}
      remove={{
        run: (ids) => deleteVariables(ids.map(Number)),
        failText: m.deleteFailed,
        permission: Perm.variableDelete,
      }}
    />
  );
}
