import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { HOME_URL, messages } from '@huiyun/contract';
import { login } from '../../api/auth.ts';
import { safeRedirect } from '../../shared/safeRedirect.ts';
import { getRememberedAccount, saveSession } from '../../shared/session.ts';
import { tellOutcome } from '../../shared/tellOutcome.ts';
import { useToast } from '../../shared/toast.tsx';

const NAVIGATE_DELAY_MS = 1000;

export type LoginForm = { userName: string; passwd: string; remember: boolean };

type SignIn = { account: string; passwd: string; remember: boolean };

const signIn = ({ account, passwd, remember }: SignIn) => login({ userName: account, passwd, remember });

/** SPEC §2.2: sign in, store the session, say 登录成功, go to the redirect target a second later. */
export function useLogin() {
  const message = useToast();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // Busy from the click until the redirect a second after a sign-in, or until a refusal.
  const [loading, setLoading] = useState(false);

  const remembered = getRememberedAccount();
  const initialValues: Partial<LoginForm> = { userName: remembered ?? '', remember: remembered !== null };

  const submit = async ({ userName, passwd, remember }: LoginForm) => {
    setLoading(true);
    const signedIn = await tellOutcome(message, signIn, { account: userName.trim(), passwd, remember: Boolean(remember) }, messages.common.serverBusy, {
      successText: () => messages.login.success,
      onDone: (answer, { account, remember: kept }) => {
        saveSession(answer, account, kept);
        setTimeout(() => navigate(safeRedirect(params.get('redirect')) ?? HOME_URL, { replace: true }), NAVIGATE_DELAY_MS);
      },
    });
    if (!signedIn) setLoading(false);
  };

  const invalid = () => void message.warning(messages.login.formInvalid);

  return { loading, initialValues, submit, invalid };
}
