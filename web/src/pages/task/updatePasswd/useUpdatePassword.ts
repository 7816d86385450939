import { Form } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { messages } from '@huiyun/contract';
import { updatePassword } from '../../../api/auth.ts';
import { errorText } from '../../../api/client.ts';
import { getSession } from '../../../shared/session.ts';
import { useToast } from '../../../shared/toast.tsx';

export type PasswordForm = { oldPasswd: string; passwd: string; confirmPasswd: string };

/** SPEC §2.17: POST /sync/update/password; the server keeps this session and revokes the others. */
export function useUpdatePassword() {
  const message = useToast();
  const [form] = Form.useForm<PasswordForm>();
  const mutation = useMutation({ mutationFn: updatePassword });

  const submit = async (values: PasswordForm) => {
    const session = getSession();
    try {
      const text = await mutation.mutateAsync({
        userId: session?.userId ?? 0,
        userName: session?.userInfo.userName ?? '',
        ...values,
      });
      void message.success(text);
      form.resetFields();
    } catch (error) {
      const text = errorText(error, messages.password.saveFailed);
      if (text) void message.error(text);
    }
  };

  return { form, submit, saving: mutation.isPending };
}
