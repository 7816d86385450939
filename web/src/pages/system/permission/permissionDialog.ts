import { messages, Perm, type Permission } from '@huiyun/contract';
import { savePermission } from '../../../api/permission.ts';
import type { EditConfig } from '../../../components/ListPage/index.ts';

const m = messages.permission;

// The save schema (and zod with it) loads with the dialog, not with the list.
const loadSchema = () => import('../../../api/saveSchemas.ts').then((s) => s.permissionSave);

/** The add / edit dialog of 权限管理: name and code (shaped like system:User:list). */
export function permissionDialog(): EditConfig<Permission> {
  return {
    entityName: m.entityName,
    schema: loadSchema,
    fields: [
      { name: 'permissionName', label: m.permissionName },
      { name: 'permission', label: m.permission, placeholder: 'system:User:list' },
    ],
    toFormValues: (row) => ({ permissionName: row.permissionName, permission: row.permission }),
    save: (values, editing) =>
      savePermission({
        permissionId: editing?.permissionId,
        permissionName: String(values.permissionName ?? ''),
        permission: String(values.permission ?? ''),
      }),
    failText: m.saveFailed,
    permission: Perm.permissionSave,
  };
}
