import { messages, Perm, type Variable } from '@huiyun/contract';
import { saveVariable } from '../../../api/variable.ts';
import type { EditConfig } from '../../../components/ListPage/index.ts';

const m = messages.variable;

// The save schema (and zod with it) loads with the dialog, not with the list.
const loadSchema = () => import('../../../api/saveSchemas.ts').then((s) => s.variableSave);

/** The add / edit dialog of 系统环境变量: fields, rules from the contract schema, save. */
export function variableDialog(): EditConfig<Variable> {
  return {
    entityName: m.title,
    schema: loadSchema,
    fields: [
      { name: 'varLable', label: m.varLable },
      { name: 'varName', label: m.varName },
      { name: 'varValue', label: m.varValue, type: 'textarea' },
    ],
    toFormValues: (row) => ({ varLable: row.varLable, varName: row.varName, varValue: row.varValue }),
    save: (values, editing) =>
      saveVariable({
        varId: editing?.varId,
        varLable: String(values.varLable ?? ''),
        varName: String(values.varName ?? ''),
        varValue: String(values.varValue ?? ''),
      }),
    failText: m.saveFailed,
    permission: Perm.variableSave,
  };
}
