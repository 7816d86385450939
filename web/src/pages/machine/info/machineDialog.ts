import { machineStatusOptions, MachineStatus, messages, Perm, type Machine, type MachineStatus as Status } from '@huiyun/contract';
import { saveMachine } from '../../../api/machine.ts';
import type { EditConfig, FieldConfig } from '../../../components/ListPage/index.ts';
import type { CompanyOptions } from '../../../components/useCompanyOptions.ts';
import type { ShownKey } from './TerminalKeyDialog.tsx';

const m = messages.machine;

// The save schema (and zod with it) loads with the dialog, not with the list.
const loadSchema = () => import('../../../api/saveSchemas.ts').then((s) => s.machineSave);

type Options = {
  /** The companies the caller may put a machine in; the select shows only when there is a choice. */
  companies: CompanyOptions;
  /** A machine was created: its terminal key is to be shown, once. */
  onCreated: (key: ShownKey) => void;
};

/** The add / edit dialog of 机器列表: fields, rules from the contract schema, save. */
export function machineDialog({ companies, onCreated }: Options): EditConfig<Machine> {
  const fields: FieldConfig[] = [
    { name: 'machineNo', label: m.machineNo, placeholder: 'DEMO-0003' },
    { name: 'machineName', label: m.machineName },
  ];
  fields.push(
    ...companies.fields({ name: 'deptId', label: m.company, placeholder: m.companyDefault }),
    { name: 'address', label: m.address },
    { name: 'status', label: m.status, type: 'select', options: machineStatusOptions },
  );
  return {
    entityName: m.entityName,
    schema: loadSchema,
    fields,
    initialValues: { status: MachineStatus.enabled },
    toFormValues: (row) => ({ machineNo: row.machineNo, machineName: row.machineName, deptId: row.deptId, address: row.address, status: row.status }),
    save: async (values, editing) => {
      const answer = await saveMachine({
        machineId: editing?.machineId,
        machineNo: String(values.machineNo ?? '').trim(),
        machineName: String(values.machineName ?? ''),
        deptId: (values.deptId as number | undefined) ?? undefined,
        address: String(values.address ?? ''),
        status: (values.status as Status | undefined) ?? MachineStatus.enabled,
      });
      if (answer.created) onCreated({ machineNo: answer.created.machineNo, terminalKey: answer.created.terminalKey });
      return answer.msg;
    },
    failText: m.saveFailed,
    permission: Perm.machineSave,
  };
}
