import { Checkbox, Form, Input } from 'antd';
import { fill, messages, RoleId, roleSave, type Role } from '@huiyun/contract';
import { saveRole } from '../../../api/role.ts';
import { FormDialog, SchemaField } from '../../../components/FormDialog/index.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';

const m = messages.role;
const builtInRoleIds: number[] = Object.values(RoleId);

type Props = { open: boolean; editing: Role | null; onClose: () => void };
type RoleForm = { systemNo: string; roleNo: string; roleName: string; isAdmin: boolean };

/** 新增角色 / 编辑角色: system code, role code, name and the administrator-type checkbox. */
export function RoleDialog({ open, editing, onClose }: Props) {
  const saver = useServerAction('role', (values: RoleForm) => saveRole({ roleId: editing?.roleId, ...values }));
  const builtIn = editing !== null && builtInRoleIds.includes(editing.roleId);
  const values: RoleForm = editing
    ? { systemNo: editing.systemNo, roleNo: editing.roleNo, roleName: editing.roleName, isAdmin: editing.isAdmin }
    : { systemNo: '', roleNo: '', roleName: '', isAdmin: false };

  const placeholder = (label: string) => fill(messages.common.inputPlaceholder, { label });
  return (
    <FormDialog<RoleForm>
      open={open}
      title={fill(editing ? messages.common.editTitle : messages.common.addTitle, { name: m.entity })}
      name="role-edit"
      schema={roleSave}
      values={values}
      onFinish={(form) => saver.run({ ...form, isAdmin: Boolean(form.isAdmin) }, m.saveFailed)}
      onClose={onClose}
    >
      <SchemaField name="systemNo" label={m.systemNo} required>
        <Input placeholder={placeholder(m.systemNo)} allowClear />
      </SchemaField>
      <SchemaField name="roleNo" label={m.roleNo} required>
        <Input placeholder={placeholder(m.roleNo)} allowClear />
      </SchemaField>
      <SchemaField name="roleName" label={m.roleName} required>
        <Input placeholder={placeholder(m.roleName)} allowClear />
      </SchemaField>
      <Form.Item name="isAdmin" valuePropName="checked" extra={m.isAdminHint}>
        {/* The seeded roles keep their type: login codes and data scope rest on it. */}
        <Checkbox disabled={builtIn}>{m.isAdmin}</Checkbox>
      </Form.Item>
    </FormDialog>
  );
}
