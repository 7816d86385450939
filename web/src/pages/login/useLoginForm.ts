import { useState, type SubmitEvent } from 'react';
import { messages } from '@huiyun/contract';
import type { LoginForm } from './useLogin.ts';

const m = messages.login;
type Errors = { userName?: string; passwd?: string };

function check(values: LoginForm): Errors {
  return {
    userName: values.userName.trim() ? undefined : m.accountRequired,
    passwd: values.passwd ? undefined : m.passwordRequired,
  };
}

/**
 * The login form's values and required-field rules, as antd's Form would keep them (a field is
 * checked when it changes and all are checked on submit), without loading antd's Form on the
 * page every visitor sees first.
 */
export function useLoginForm(initialValues: Partial<LoginForm>, onValid: (values: LoginForm) => void, onInvalid: () => void) {
  const [values, setValues] = useState<LoginForm>({ userName: initialValues.userName ?? '', passwd: '', remember: initialValues.remember ?? false });
  const [errors, setErrors] = useState<Errors>({});

  const change = <K extends keyof LoginForm>(field: K, value: LoginForm[K]) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (field !== 'remember') setErrors((current) => ({ ...current, [field]: check(next)[field as keyof Errors] }));
  };

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = check(values);
    setErrors(found);
    if (found.userName || found.passwd) onInvalid();
    else onValid(values);
  };

  return { values, errors, change, submit };
}
