import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { HOME_URL, messages } from '@huiyun/contract';
import { login } from '../../api/auth.ts';
import { errorText } from '../../api/client.ts';
import { safeRedirect } from '../../shared/safeRedirect.ts';
import { getRememberedAccount, saveSession } from '../../shared/session.ts';
import { useToast } from '../../shared/toast.tsx';

const NAVIGATE_DELAY_MS = 1000;

export type LoginForm = { userName: string; passwd: string; remember: boolean };

/** SPEC §2.2: sign in, store the session, say 登录成功, go to the redirect target a second later. */
export function useLogin() {
  const message = useToast();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [loading, setLoading] = useState(false);

  const remembered = getRememberedAccount();
  const initialValues: Partial<LoginForm> = { userName: remembered ?? '', remember: remembered !== null };

  const submit = async ({ userName, passwd, remember }: LoginForm) => {
    setLoading(true);
    const account = userName.trim();
    try {
      const answer = await login({ userName: account, passwd, remember: Boolean(remember) });
      saveSession(answer, account, Boolean(remember));
      void message.success(messages.login.success);
      setTimeout(() => navigate(safeRedirect(params.get('redirect')) ?? HOME_URL, { replace: true }), NAVIGATE_DELAY_MS);
    } catch (error) {
      setLoading(false);
      const text = errorText(error, messages.common.serverBusy);
      if (text) void message.error(text);
    }
  };

  const invalid = () => void message.warning(messages.login.formInvalid);

  return { loading, initialValues, submit, invalid };
}
