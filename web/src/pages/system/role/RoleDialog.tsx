import { useEffect } from 'react';
import { Checkbox, Form, Input, Modal } from 'antd';
import { fill, messages, RoleId, roleSave, type Role } from '@huiyun/contract';
import { saveRole } from '../../../api/role.ts';
import { zodRule } from '../../../components/ListPage/index.ts';
import { useServerAction } from '../../../components/ListPage/useServerAction.ts';

const m = messages.role;
const builtInRoleIds: number[] = Object.values(RoleId);

type Props = { open: boolean; editing: Role | null; onClose: () => void };
type RoleForm = { systemNo: string; roleNo: string; roleName: string; isAdmin: boolean };

/** 新增角色 / 编辑角色: system code, role code, name and the administrator-type checkbox. */
export function RoleDialog({ open, editing, onClose }: Props) {
  const [form] = Form.useForm<RoleForm>();
  const saver = useServerAction('role', (values: RoleForm) => saveRole({ roleId: editing?.roleId, ...values }));
  const builtIn = editing !== null && builtInRoleIds.includes(editing.roleId);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      editing
        ? { systemNo: editing.systemNo, roleNo: editing.roleNo, roleName: editing.roleName, isAdmin: editing.isAdmin }
        : { systemNo: '', roleNo: '', roleName: '', isAdmin: false },
    );
  }, [open, editing, form]);

  const submit = async () => {
    let values: RoleForm;
    try {
      values = await form.validateFields();
    } catch {
      return; // the field messages are showing
    }
    if (await saver.run({ ...values, isAdmin: Boolean(values.isAdmin) }, m.saveFailed)) onClose();
  };

  const placeholder = (label: string) => fill(messages.common.inputPlaceholder, { label });
  return (
    <Modal
      open={open}
      title={fill(editing ? messages.common.editTitle : messages.common.addTitle, { name: m.entity })}
      okText={messages.common.save}
      cancelText={messages.common.cancel}
      confirmLoading={saver.pending}
      onOk={() => void submit()}
      onCancel={onClose}
      forceRender
      maskClosable={false}
    >
      <Form form={form} name="role-edit" layout="vertical" onFinish={() => void submit()}>
        <Form.Item name="systemNo" label={m.systemNo} required rules={[zodRule(roleSave, 'systemNo')]} validateFirst>
          <Input placeholder={placeholder(m.systemNo)} allowClear />
        </Form.Item>
        <Form.Item name="roleNo" label={m.roleNo} required rules={[zodRule(roleSave, 'roleNo')]} validateFirst>
          <Input placeholder={placeholder(m.roleNo)} allowClear />
        </Form.Item>
        <Form.Item name="roleName" label={m.roleName} required rules={[zodRule(roleSave, 'roleName')]} validateFirst>
          <Input placeholder={placeholder(m.roleName)} allowClear />
        </Form.Item>
        <Form.Item name="isAdmin" valuePropName="checked" extra={m.isAdminHint}>
          {/* The seeded roles keep their type: login codes and data scope rest on it. */}
          <Checkbox disabled={builtIn}>{m.isAdmin}</Checkbox>
        </Form.Item>
        <button type="submit" hidden aria-hidden />
      </Form>
    </Modal>
  );
}
