import { Form } from 'antd';
import { messages } from '@huiyun/contract';
import { updatePassword } from '../../../api/auth.ts';
import { getSession } from '../../../shared/session.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';

export type PasswordForm = { oldPasswd: string; passwd: string; confirmPasswd: string };

/** SPEC §2.17: POST /sync/update/password; the server keeps this session and revokes the others. */
export function useUpdatePassword() {
  const [form] = Form.useForm<PasswordForm>();
  const saver = useServerAction('user', updatePassword, { onDone: () => form.resetFields() });

  const submit = async (values: PasswordForm) => {
    const session = getSession();
    await saver.run({ userId: session?.userId ?? 0, userName: session?.userInfo.userName ?? '', ...values }, messages.password.saveFailed);
  };

  return { form, submit, saving: saver.pending };
}
