import { messages, Perm, sexOptions, type User } from '@huiyun/contract';
import { saveUser } from '../../../api/user.ts';
import type { EditConfig, FieldConfig, FieldOption } from '../../../components/ListPage/index.ts';

const m = messages.user;

// The save schema (and zod with it) loads with the dialog, not with the list.
const loadSchema = () => import('../../../api/saveSchemas.ts').then((s) => s.userSave);

type Options = {
  roles: FieldOption[];
  /** Company choices; empty when the caller cannot read them (the server then uses its own company). */
  companies: FieldOption[];
  /** A new account was created: its one-time password is to be shown. */
  onCreated: (userName: string, password: string) => void;
};

/** The add / edit dialog of 用户管理: fields, rules from the contract schema (SPEC §5), save. */
export function userDialog({ roles, companies, onCreated }: Options): EditConfig<User> {
  const fields: FieldConfig[] = [
    { name: 'userName', label: m.userName },
    { name: 'userRealName', label: m.userRealName },
    { name: 'roleId', label: m.role, type: 'select', options: roles },
    { name: 'userSex', label: m.userSex, type: 'select', options: sexOptions },
    { name: 'userMobile', label: m.userMobile },
    { name: 'userEmail', label: m.userEmail },
  ];
  if (companies.length > 0) fields.push({ name: 'deptId', label: m.company, type: 'select', options: companies, placeholder: m.companyDefault });
  return {
    entityName: m.entityName,
    schema: loadSchema,
    fields,
    toFormValues: (row) => ({
      userName: row.userName, userRealName: row.userRealName, roleId: row.roleId, userSex: row.userSex || undefined,
      userMobile: row.userMobile, userEmail: row.userEmail, deptId: row.deptId ?? undefined,
    }),
    save: async (values, editing) => {
      const userName = String(values.userName ?? '').trim();
      const answer = await saveUser({
        userId: editing?.userId,
        userName,
        userRealName: String(values.userRealName ?? ''),
        roleId: values.roleId as number,
        userSex: String(values.userSex ?? ''),
        userMobile: String(values.userMobile ?? ''),
        userEmail: String(values.userEmail ?? ''),
        deptId: (values.deptId as number | undefined) ?? undefined,
      });
      if (answer.initialPassword) onCreated(userName, answer.initialPassword);
      return answer.msg;
    },
    failText: messages.common.saveFailed,
    permission: Perm.userSave,
  };
}
